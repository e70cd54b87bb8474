import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { ConfirmDialog } from '../../lib/ConfirmDialog';
import { errorInWords } from '../../lib/errorInWords';
import { formatTime } from '../../lib/formatTime';
import { canManageKeys } from '../auth/roles';
import { useSignedIn } from '../auth/SessionProvider';
import { StatusMessage } from '../layout/StatusMessage';
import { CreateScimTokenDialog } from './CreateScimTokenDialog';
import { REVOKE_SCIM_TOKEN_MUTATION, SCIM_TOKENS_QUERY, type ScimToken } from './scimQueries';

/** Settings, SCIM tokens: the tokens the organization's identity provider provisions people with. */
export function ScimTokensSection() {
  const session = useSignedIn();
  if (!canManageKeys(session.member.role)) {
    return (
      <section aria-labelledby="scim-title">
        <h2 id="scim-title">SCIM tokens</h2>
        <p>Only owners and admins can see and create SCIM tokens.</p>
      </section>
    );
  }
  return <ScimTokenManagement />;
}

function ScimTokenManagement() {
  const [{ data, error, fetching }, reexecute] = useQuery({ query: SCIM_TOKENS_QUERY });
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<ScimToken | null>(null);
  const reload = () => reexecute({ requestPolicy: 'network-only' });
  const tokens = data?.scimTokens ?? [];

  return (
    <section aria-labelledby="scim-title">
      <div className="section-head">
        <h2 id="scim-title">SCIM tokens</h2>
        <button type="button" className="primary" onClick={() => setCreating(true)}>
          Create SCIM token
        </button>
      </div>
      <p className="hint">
        Your identity provider (Okta, Microsoft Entra ID) creates, updates and deactivates members at{' '}
        <code>{`${window.location.origin}/scim/v2`}</code> with a token made here. A token is shown only once.
      </p>
      {error && (
        <StatusMessage error retry={reload}>
          {errorInWords(error)}
        </StatusMessage>
      )}
      {!data && fetching && <StatusMessage>Loading SCIM tokens…</StatusMessage>}
      {data && tokens.length === 0 && <StatusMessage>No SCIM tokens yet.</StatusMessage>}
      {tokens.length > 0 && (
        <div className="table-wrap" role="region" aria-label="SCIM tokens" tabIndex={0}>
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Token</th>
                <th scope="col">Acts as</th>
                <th scope="col">Created by</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {tokens.map((token) => (
                <tr key={token.id}>
                  <th scope="row">{token.name}</th>
                  <td data-label="Token">
                    <code>{token.hint}…</code>
                  </td>
                  <td data-label="Acts as">{token.role}</td>
                  <td data-label="Created by">{token.createdBy}</td>
                  <td data-label="Created">{formatTime(token.createdAt)}</td>
                  <td data-label="Last used">{formatTime(token.lastUsedAt)}</td>
                  <td>
                    {token.revokedAt ? (
                      <span>Revoked {formatTime(token.revokedAt)}</span>
                    ) : (
                      <button type="button" className="danger" onClick={() => setRevoking(token)}>
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
      {creating && <CreateScimTokenDialog onCreated={reload} onClose={() => setCreating(false)} />}
      {revoking && <RevokeScimTokenDialog token={revoking} onRevoked={reload} onClose={() => setRevoking(null)} />}
    </section>
  );
}

/** Revoking cannot be undone, so it asks once more, naming the token. */
function RevokeScimTokenDialog({
  token,
  onRevoked,
  onClose,
}: {
  token: ScimToken;
  onRevoked: () => void;
  onClose: () => void;
}) {
  const [{ fetching }, revoke] = useMutation(REVOKE_SCIM_TOKEN_MUTATION);
  return (
    <ConfirmDialog
      title={`Revoke "${token.name}"?`}
      confirmLabel="Revoke"
      busy={fetching}
      run={() => revoke({ id: token.id })}
      onDone={onRevoked}
      onClose={onClose}
    >
      <p>
        The identity provider using <code>{token.hint}…</code> is refused from now on; provisioning stops until it gets
        a new token. This cannot be undone.
      </p>
    </ConfirmDialog>
  );
}
