import { useState } from 'react';
import { useMutation } from 'urql';
import { Dialog } from '../../lib/Dialog';
import { errorInWords } from '../../lib/errorInWords';
import { REVOKE_API_KEY_MUTATION, type ApiKey } from './apiKeyQueries';

/** Revoking cannot be undone, so it asks once more, naming the key. */
export function RevokeKeyDialog({ apiKey, onRevoked, onClose }: { apiKey: ApiKey; onRevoked: () => void; onClose: () => void }) {
  const [error, setError] = useState<string | null>(null);
  const [{ fetching }, revoke] = useMutation(REVOKE_API_KEY_MUTATION);
  const confirm = async () => {
    const result = await revoke({ id: apiKey.id });
    if (result.error) {
      setError(errorInWords(result.error));
      return;
    }
    onRevoked();
    onClose();
  };
  return (
    <Dialog title={`Revoke "${apiKey.name}"?`} onClose={onClose}>
      <p>
        Applications using the key <code>{apiKey.hint}…</code> are refused within seconds. This cannot be undone.
      </p>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <div className="actions">
        <button type="button" onClick={onClose}>
          Cancel
        </button>
        <button type="button" className="danger" onClick={confirm} disabled={fetching}>
          Revoke
        </button>
      </div>
    </Dialog>
  );
}
