import { useMutation } from 'urql';
import { ConfirmDialog } from '../../lib/ConfirmDialog';
import { REVOKE_API_KEY_MUTATION, type ApiKey } from './apiKeyQueries';

/** Revoking cannot be undone, so it asks once more, naming the key. */
export function RevokeKeyDialog({
  apiKey,
  onRevoked,
  onClose,
}: {
  apiKey: ApiKey;
  onRevoked: () => void;
  onClose: () => void;
}) {
  const [{ fetching }, revoke] = useMutation(REVOKE_API_KEY_MUTATION);
  return (
    <ConfirmDialog
      title={`Revoke "${apiKey.name}"?`}
      confirmLabel="Revoke"
      busy={fetching}
      run={() => revoke({ id: apiKey.id })}
      onDone={onRevoked}
      onClose={onClose}
    >
      <p>
        Applications using the key <code>{apiKey.hint}…</code> are refused within seconds. This cannot be undone.
      </p>
    </ConfirmDialog>
  );
}
