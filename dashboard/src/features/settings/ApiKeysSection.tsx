import { useState } from 'react';
import { useQuery } from 'urql';
import { errorInWords } from '../../lib/errorInWords';
import { formatTime } from '../../lib/formatTime';
import { canManageKeys } from '../auth/roles';
import { useSignedIn } from '../auth/SessionProvider';
import { StatusMessage } from '../layout/StatusMessage';
import { API_KEYS_QUERY, type ApiKey } from './apiKeyQueries';
import { GenerateKeyDialog } from './GenerateKeyDialog';
import { RevokeKeyDialog } from './RevokeKeyDialog';

export function ApiKeysSection() {
  const session = useSignedIn();
  if (!canManageKeys(session.member.role)) {
    return (
      <section aria-labelledby="keys-title">
        <h2 id="keys-title">API keys</h2>
        <p>Only owners and admins can see and create API keys. Ask one of them if you need a key.</p>
      </section>
    );
  }
  return <KeyManagement />;
}

function KeyManagement() {
  const [{ data, error, fetching }, reexecute] = useQuery({ query: API_KEYS_QUERY });
  const [generating, setGenerating] = useState(false);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const reload = () => reexecute({ requestPolicy: 'network-only' });
  const keys = data?.apiKeys ?? [];

  return (
    <section aria-labelledby="keys-title">
      <div className="section-head">
        <h2 id="keys-title">API keys</h2>
        <button type="button" className="primary" onClick={() => setGenerating(true)}>
          Generate API key
        </button>
      </div>
      <p className="hint">
        Applications send a key in the apiKey argument of every query to /graphql. A key's secret is shown only once,
        when it is made.
      </p>
      {error && (
        <StatusMessage error retry={reload}>
          {errorInWords(error)}
        </StatusMessage>
      )}
      {!data && fetching && <StatusMessage>Loading API keys…</StatusMessage>}
      {data && keys.length === 0 && (
        <StatusMessage>No API keys yet. Generate one to start using the API.</StatusMessage>
      )}
      {keys.length > 0 && (
        <div className="table-wrap" role="region" aria-label="API keys" tabIndex={0}>
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Key</th>
                <th scope="col">Access</th>
                <th scope="col">Created by</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.map((key) => (
                <tr key={key.id}>
                  <th scope="row">{key.name}</th>
                  <td data-label="Key">
                    <code>{key.hint}…</code>
                  </td>
                  <td data-label="Access">{key.readOnly ? 'Read-only' : 'Read and write'}</td>
                  <td data-label="Created by">{key.createdBy}</td>
                  <td data-label="Created">{formatTime(key.createdAt)}</td>
                  <td data-label="Last used">{formatTime(key.lastUsedAt)}</td>
                  <td>
                    {key.revokedAt ? (
                      <span>Revoked {formatTime(key.revokedAt)}</span>
                    ) : (
                      <button type="button" className="danger" onClick={() => setRevoking(key)}>
                        Revoke
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {generating && <GenerateKeyDialog onCreated={reload} onClose={() => setGenerating(false)} />}
      {revoking && <RevokeKeyDialog apiKey={revoking} onRevoked={reload} onClose={() => setRevoking(null)} />}
    </section>
  );
}
