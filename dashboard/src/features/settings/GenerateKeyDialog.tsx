import { useRef, useState, type FormEvent } from 'react';
import { useMutation } from 'urql';
import { Dialog } from '../../lib/Dialog';
import { ErrorLine } from '../../lib/ErrorLine';
import { errorInWords } from '../../lib/errorInWords';
import { CREATE_API_KEY_MUTATION, type ApiKey } from './apiKeyQueries';

/** Asks for a name and read-only, then shows the secret this once with a copy button. */
export function GenerateKeyDialog({ onCreated, onClose }: { onCreated: () => void; onClose: () => void }) {
  const [name, setName] = useState('');
  const [readOnly, setReadOnly] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [{ fetching }, create] = useMutation<{ createApiKey: { key: string; apiKey: ApiKey } }>(CREATE_API_KEY_MUTATION);

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
      <Dialog title="Your new API key" onClose={onClose}>
        <NewKey secret={secret} />
        <div className="actions">
          <button type="button" className="primary" onClick={onClose}>
            Done
          </button>
        </div>
      </Dialog>
    );
  }
  return (
    <Dialog title="Generate API key" onClose={onClose}>
      <form onSubmit={submit}>
        <label>
          Name
          <input name="name" required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} aria-describedby="key-name-hint" />
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

function NewKey({ secret }: { secret: string }) {
  const field = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<string | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied('Copied to the clipboard.');
    } catch {
      // Without clipboard permission (or over plain HTTP) the key is selected for the person to copy.
      field.current?.select();
      setCopied('Select and copy the key yourself: this browser did not allow copying.');
    }
  };
  return (
    <>
      <p>Copy the key now and keep it somewhere safe: it is shown only this once.</p>
      <label>
        New API key
        <input ref={field} readOnly value={secret} className="secret" onFocus={(e) => e.target.select()} />
      </label>
      <button type="button" onClick={copy}>
        Copy
      </button>
      <p role="status" className="hint">
        {copied}
      </p>
    </>
  );
}
