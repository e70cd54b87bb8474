import { useState, type FormEvent } from 'react';
import { useMutation } from 'urql';
import { Dialog } from '../../lib/Dialog';
import { ErrorLine } from '../../lib/ErrorLine';
import { errorInWords } from '../../lib/errorInWords';
import { SecretOnceDialog } from '../../lib/SecretOnce';
import { CREATE_API_KEY_MUTATION } from './apiKeyQueries';

/** Asks for a name and read-only, then shows the secret this once with a copy button. */
export function GenerateKeyDialog({ onCreated, onClose }: { onCreated: () => void; onClose: () => void }) {
  const [name, setName] = useState('');
  const [readOnly, setReadOnly] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [{ fetching }, create] = useMutation(CREATE_API_KEY_MUTATION);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const result = await create({ name: name.trim(), readOnly });
    if (result.error || !result.data) {
      setError(result.error ? errorInWords(result.error) : 'The key was not created. Please try again.');
      return;
    }
    setSecret(result.data.createApiKey.key);
    onCreated();
  };

  if (secret) {
    return (
      <SecretOnceDialog title="Your new API key" secret={secret} label="New API key" noun="key" onClose={onClose} />
    );
  }
  return (
    <Dialog title="Generate API key" onClose={onClose}>
      <form onSubmit={submit}>
        <label>
          Name
          <input
            name="name"
            required
            maxLength={100}
            value={name}
            onChange={(e) => setName(e.target.value)}
            aria-describedby="key-name-hint"
          />
        </label>
        <p id="key-name-hint" className="hint">
          Say where the key is used, e.g. "Zapier export", so it can be revoked with confidence later.
        </p>
        <label className="check">
          <input type="checkbox" checked={readOnly} onChange={(e) => setReadOnly(e.target.checked)} />
          Read-only (the key can read but not create, change or delete)
        </label>
        <ErrorLine error={error} />
        <div className="actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={fetching}>
            Generate
          </button>
        </div>
      </form>
    </Dialog>
  );
}
