import { useState, type ReactNode } from 'react';
import type { CombinedError } from 'urql';
import { Dialog } from './Dialog';
import { ErrorLine } from './ErrorLine';
import { errorInWords } from './errorInWords';

/**
 * Asks once more before an action that cannot be undone; runs it, shows its error in words, or closes
 * and tells the page it is done.
 */
export function ConfirmDialog({
  title,
  confirmLabel,
  busy,
  run,
  onDone,
  onClose,
  children,
}: {
  title: string;
  confirmLabel: string;
  busy: boolean;
  run: () => Promise<{ error?: CombinedError }>;
  onDone: () => void;
  onClose: () => void;
  children: ReactNode;
}) {
  const [error, setError] = useState<string | null>(null);
  const confirm = async () => {
    const result = await run();
    if (result.error) {
      setError(errorInWords(result.error));
      return;
    }
    onDone();
    onClose();
  };
  return (
    <Dialog title={title} onClose={onClose}>
      {children}
      <ErrorLine error={error} />
      <div className="actions">
        <button type="button" onClick={onClose}>
          Cancel
        </button>
        <button type="button" className="danger" onClick={confirm} disabled={busy}>
          {confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}
