import { useState, type FormEvent } from 'react';
import { useMutation } from 'urql';
import { Dialog } from '../../lib/Dialog';
import { ErrorLine } from '../../lib/ErrorLine';
import { errorInWords } from '../../lib/errorInWords';
import { ADD_INTEGRATION, KINDS, kindLabel } from './integrationQueries';

interface Connected {
  kind: string;
  url: string | null;
  address: string | null;
  secret: string | null;
  /** A pull's first sync window, in days; null for a platform that sends. */
  backfillDays: number | null;
}

/** Where the platform sends, and our secret, shown this once in read-only fields; or when a pull starts. */
function ConnectedDialog({ connected, onClose }: { connected: Connected; onClose: () => void }) {
  const where = connected.url ?? connected.address ?? '';
  return (
    <Dialog title={`${kindLabel(connected.kind)} connected`} onClose={onClose}>
      {connected.backfillDays !== null ? (
        <p>
          The first sync starts within a minute and reads the last {connected.backfillDays}{' '}
          {connected.backfillDays === 1 ? 'day' : 'days'}; after that, what changed is read every few minutes.
        </p>
      ) : (
        <>
          <p>Copy these now and keep them somewhere safe: they are shown only this once.</p>
          <label>
            {connected.address ? 'Address to forward feedback to' : 'URL to give the platform'}
            <input readOnly value={where} className="secret" onFocus={(e) => e.target.select()} />
          </label>
          {connected.secret && (
            <label>
              Signing secret
              <input readOnly value={connected.secret} className="secret" onFocus={(e) => e.target.select()} />
            </label>
          )}
        </>
      )}
      <p className="hint">
        Step by step for each platform: docs/integrations.md. Events arrive as feedback items a few seconds after the
        platform sends them.
      </p>
      <div className="actions">
        <button type="button" className="primary" onClick={onClose}>
          Done
        </button>
      </div>
    </Dialog>
  );
}

/** The first sync's window when none is chosen: the service's default. */
const DEFAULT_BACKFILL_DAYS = 30;

/**
 * Asks for the platform and what it needs (its secret, a token; for a pull, the Zendesk subdomain and how
 * far back the first sync goes), then shows the URL and secret this once.
 */
export function AddIntegrationDialog({ onAdded, onClose }: { onAdded: () => void; onClose: () => void }) {
  const [choice, setChoice] = useState<string>('webhook');
  const [name, setName] = useState('');
  const [secret, setSecret] = useState('');
  const [token, setToken] = useState('');
  const [subdomain, setSubdomain] = useState('');
  const [backfillDays, setBackfillDays] = useState(String(DEFAULT_BACKFILL_DAYS));
  const [error, setError] = useState<string | null>(null);
  const [connected, setConnected] = useState<Connected | null>(null);
  const [{ fetching }, add] = useMutation(ADD_INTEGRATION);
  const asks = KINDS.find((entry) => entry.id === choice) ?? KINDS[0];
  const { kind } = asks;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const days = Number(backfillDays);
    const input = {
      kind,
      ...(name.trim() ? { name: name.trim() } : {}),
      ...(asks.secret && secret.trim() ? { secret: secret.trim() } : {}),
      ...(asks.token && token.trim() ? { token: token.trim() } : {}),
      ...(asks.id === 'zendesk-pull' && subdomain.trim() ? { subdomain: subdomain.trim() } : {}),
      ...(asks.pull ? { backfillDays: days } : {}),
    };
    const result = await add({ input });
    if (result.error || !result.data) {
      setError(result.error ? errorInWords(result.error) : 'The integration was not added. Please try again.');
      return;
    }
    const { url, address, secret: generated } = result.data.addIntegration;
    setConnected({
      kind,
      url: url ?? null,
      address: address ?? null,
      secret: generated ?? null,
      backfillDays: asks.pull ? days : null,
    });
    onAdded();
  };

  if (connected) return <ConnectedDialog connected={connected} onClose={onClose} />;
  return (
    <Dialog title="Add integration" onClose={onClose}>
      <form onSubmit={submit}>
        <label>
          Platform
          <select name="kind" value={choice} onChange={(e) => setChoice(e.target.value)}>
            {KINDS.map((entry) => (
              <option key={entry.id} value={entry.id}>
                {entry.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Name
          <input name="name" maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        {asks.secret && (
          <label>
            {asks.secret}
            <input
              name="secret"
              type="password"
              autoComplete="off"
              required
              maxLength={500}
              value={secret}
              onChange={(e) => setSecret(e.target.value)}
            />
          </label>
        )}
        {asks.id === 'zendesk-pull' && (
          <label>
            Zendesk subdomain (the part before .zendesk.com)
            <input
              name="subdomain"
              required
              maxLength={63}
              pattern="[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?"
              value={subdomain}
              onChange={(e) => setSubdomain(e.target.value)}
            />
          </label>
        )}
        {asks.token && (
          <label>
            {asks.token}
            <input
              name="token"
              type="password"
              autoComplete="off"
              required={asks.pull}
              maxLength={4000}
              value={token}
              onChange={(e) => setToken(e.target.value)}
            />
          </label>
        )}
        {asks.pull && (
          <label>
            Days the first sync goes back (0 to 365)
            <input
              name="backfillDays"
              type="number"
              required
              min={0}
              max={365}
              step={1}
              value={backfillDays}
              onChange={(e) => setBackfillDays(e.target.value)}
            />
          </label>
        )}
        <p className="hint">Secrets and tokens are stored encrypted and never shown again.</p>
        <ErrorLine error={error} />
        <div className="actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={fetching}>
            Add integration
          </button>
        </div>
      </form>
    </Dialog>
  );
}
