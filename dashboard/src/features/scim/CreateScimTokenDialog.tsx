import { useState, type FormEvent } from 'react';
import { useMutation } from 'urql';
import { Dialog } from '../../lib/Dialog';
import { ErrorLine } from '../../lib/ErrorLine';
import { errorInWords } from '../../lib/errorInWords';
import { SecretOnceDialog } from '../../lib/SecretOnce';
import { CREATE_SCIM_TOKEN_MUTATION } from './scimQueries';

/** Asks for a name, then shows the token this once with a copy button, to paste into the identity provider. */
export function CreateScimTokenDialog({ onCreated, onClose }: { onCreated: () => void; onClose: () => void }) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [{ fetching }, create] = useMutation(CREATE_SCIM_TOKEN_MUTATION);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const result = await create({ name: name.trim() });
    if (result.error || !result.data) {
      setError(result.error ? errorInWords(result.error) : 'The token was not created. Please try again.');
      return;
    }
    setSecret(result.data.createScimToken.token);
    onCreated();
  };

  if (secret) {
    return (
      <SecretOnceDialog
        title="Your new SCIM token"
        secret={secret}
        label="New SCIM token"
        noun="token"
        onClose={onClose}
      />
    );
  }
  return (
    <Dialog title="Create SCIM token" onClose={onClose}>
      <form onSubmit={submit}>
        <label>
          Name
          <input
            name="name"
            required
            maxLength={100}
            value={name}
            onChange={(e) => setName(e.target.value)}
            aria-describedby="scim-name-hint"
          />
        </label>
        <p id="scim-name-hint" className="hint">
          Name the identity provider that uses it, e.g. "Okta" or "Entra ID".
        </p>
        <ErrorLine error={error} />
        <div className="actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={fetching}>
            Create
          </button>
        </div>
      </form>
    </Dialog>
  );
}
