import type { ReactNode } from 'react';

/** Loading, empty and error states in words; errors are announced and offer a retry where one helps. */
export function StatusMessage({
  children,
  error = false,
  retry,
}: {
  children: ReactNode;
  error?: boolean;
  retry?: () => void;
}) {
  return (
    <div className={error ? 'status error' : 'status'} role={error ? 'alert' : 'status'}>
      <p>{children}</p>
      {retry && (
        <button type="button" onClick={retry}>
          Try again
        </button>
      )}
    </div>
  );
}
