import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { ConfirmDialog } from '../../lib/ConfirmDialog';
import { ErrorLine } from '../../lib/ErrorLine';
import { errorInWords } from '../../lib/errorInWords';
import { formatTime } from '../../lib/formatTime';
import { useSignedIn } from '../auth/SessionProvider';
import type { Role } from '../auth/sessionQueries';
import { StatusMessage } from '../layout/StatusMessage';
import {
  ADD_SSO_DOMAIN,
  REMOVE_SSO_CONNECTION,
  REMOVE_SSO_DOMAIN,
  SET_OIDC_CONNECTION,
  SET_SAML_CONNECTION,
  SET_SSO_REQUIRED,
  SSO_SETTINGS,
  VERIFY_SSO_DOMAIN,
  type SsoConnection,
  type SsoDomain,
} from './ssoQueries';

const JOIN_ROLES: Role[] = ['admin', 'member', 'viewer'];

/** Settings → Single sign-on: the OIDC connection, the email domains, whether SSO is required (owners). */
export function SingleSignOnSection() {
  const session = useSignedIn();
  const [{ data, error, fetching }, reexecute] = useQuery({
    query: SSO_SETTINGS,
    pause: session.member.role !== 'owner',
  });
  const reload = () => reexecute({ requestPolicy: 'network-only' });
  if (session.member.role !== 'owner')
    return (
      <section aria-labelledby="sso-settings-title">
        <h2 id="sso-settings-title">Single sign-on</h2>
        <p className="hint">Only owners can see and change single sign-on.</p>
      </section>
    );
  return (
    <section aria-labelledby="sso-settings-title">
      <h2 id="sso-settings-title">Single sign-on</h2>
      {error && (
        <StatusMessage error retry={reload}>
          {errorInWords(error)}
        </StatusMessage>
      )}
      {!data && fetching && <StatusMessage>Loading single sign-on…</StatusMessage>}
      {data && (
        <>
          <Connection connection={data.ssoConnection ?? null} onSaved={reload} />
          <Domains domains={data.ssoDomains} hasConnection={Boolean(data.ssoConnection)} onChanged={reload} />
        </>
      )}
    </section>
  );
}

/** The connection: OpenID Connect or SAML 2.0 (one at a time), and its removal. */
function Connection({ connection, onSaved }: { connection: SsoConnection | null; onSaved: () => void }) {
  const [protocol, setProtocol] = useState(connection?.protocol ?? 'oidc');
  const [removing, setRemoving] = useState(false);
  return (
    <section className="card" aria-labelledby="sso-connection-title">
      <h3 id="sso-connection-title">Connection</h3>
      {connection && (
        <p className="hint">
          {connection.protocol === 'saml' ? 'SAML 2.0' : 'OpenID Connect'}, set by {connection.updatedBy} on{' '}
          {formatTime(connection.updatedAt)}.
        </p>
      )}
      <fieldset className="inline-form">
        <legend>Protocol</legend>
        <label>
          <input type="radio" name="protocol" checked={protocol === 'oidc'} onChange={() => setProtocol('oidc')} />
          OpenID Connect
        </label>
        <label>
          <input type="radio" name="protocol" checked={protocol === 'saml'} onChange={() => setProtocol('saml')} />
          SAML 2.0
        </label>
      </fieldset>
      {protocol === 'saml' ? (
        <SamlForm connection={connection?.protocol === 'saml' ? connection : null} onSaved={onSaved} />
      ) : (
        <OidcForm connection={connection?.protocol === 'oidc' ? connection : null} onSaved={onSaved} />
      )}
      {connection && (
        <button type="button" className="danger" onClick={() => setRemoving(true)}>
          Remove single sign-on
        </button>
      )}
      {removing && <RemoveConnectionDialog onDone={onSaved} onClose={() => setRemoving(false)} />}
    </section>
  );
}

function SamlForm({ connection, onSaved }: { connection: SsoConnection | null; onSaved: () => void }) {
  const [{ fetching }, save] = useMutation(SET_SAML_CONNECTION);
  const [metadataUrl, setMetadataUrl] = useState(connection?.idpMetadataUrl ?? '');
  const [metadataXml, setMetadataXml] = useState('');
  const [defaultRole, setDefaultRole] = useState<Role>(connection?.defaultRole ?? 'member');
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const origin = window.location.origin;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await save({
      metadataXml: metadataXml.trim() || null,
      metadataUrl: metadataXml.trim() ? null : metadataUrl.trim() || null,
      defaultRole,
    });
    setError(result.error ? errorInWords(result.error) : null);
    setSaved(!result.error);
    if (!result.error) onSaved();
  };

  return (
    <form onSubmit={submit} aria-label="SAML 2.0">
      <p className="hint">
        At your identity provider, add a SAML application with the ACS URL <code>{`${origin}/auth/saml/acs`}</code> and
        the entity id (audience) <code>{connection?.spEntityId ?? `${origin}/auth/saml/metadata`}</code>; sign the
        assertions and send the email as the NameID. Then give its metadata here.
      </p>
      {connection?.idpEntityId && <p className="hint">Identity provider: {connection.idpEntityId}</p>}
      <label>
        Metadata URL
        <input type="url" value={metadataUrl} onChange={(e) => setMetadataUrl(e.target.value)} />
      </label>
      <label>
        Or the metadata XML
        <textarea rows={4} value={metadataXml} onChange={(e) => setMetadataXml(e.target.value)} />
      </label>
      <RoleChoice role={defaultRole} onChange={setDefaultRole} />
      <ErrorLine error={error} />
      {saved && <p role="status">Single sign-on saved.</p>}
      <button type="submit" className="primary" disabled={fetching}>
        Save SAML connection
      </button>
    </form>
  );
}

function RoleChoice({ role, onChange }: { role: Role; onChange: (role: Role) => void }) {
  return (
    <label>
      Role of people who sign in for the first time
      <select value={role} onChange={(e) => onChange(e.target.value as Role)}>
        {JOIN_ROLES.map((choice) => (
          <option key={choice} value={choice}>
            {choice}
          </option>
        ))}
      </select>
    </label>
  );
}

function OidcForm({ connection, onSaved }: { connection: SsoConnection | null; onSaved: () => void }) {
  const [{ fetching }, save] = useMutation(SET_OIDC_CONNECTION);
  const [issuer, setIssuer] = useState(connection?.issuer ?? '');
  const [clientId, setClientId] = useState(connection?.clientId ?? '');
  const [clientSecret, setClientSecret] = useState('');
  const [defaultRole, setDefaultRole] = useState<Role>(connection?.defaultRole ?? 'member');
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await save({
      issuer: issuer.trim(),
      clientId: clientId.trim(),
      clientSecret: clientSecret === '' ? null : clientSecret,
      defaultRole,
    });
    setError(result.error ? errorInWords(result.error) : null);
    setSaved(!result.error);
    if (!result.error) {
      setClientSecret('');
      onSaved();
    }
  };

  return (
    <form onSubmit={submit} aria-label="OpenID Connect">
      <p className="hint">
        Register an application (web, authorization code) at your identity provider with the sign-in redirect address{' '}
        <code>{connection?.redirectUri ?? `${window.location.origin}/auth/oidc/callback`}</code>, then fill this in.
      </p>
      <label>
        Issuer
        <input
          type="url"
          required
          placeholder="https://example.okta.com"
          value={issuer}
          onChange={(e) => setIssuer(e.target.value)}
        />
      </label>
      <label>
        Client ID
        <input required value={clientId} onChange={(e) => setClientId(e.target.value)} />
      </label>
      <label>
        Client secret
        <input
          type="password"
          autoComplete="off"
          required={!connection}
          placeholder={connection ? 'Stored; leave empty to keep it' : ''}
          value={clientSecret}
          onChange={(e) => setClientSecret(e.target.value)}
        />
      </label>
      <RoleChoice role={defaultRole} onChange={setDefaultRole} />
      <ErrorLine error={error} />
      {saved && <p role="status">Single sign-on saved.</p>}
      <button type="submit" className="primary" disabled={fetching}>
        Save connection
      </button>
    </form>
  );
}

function RemoveConnectionDialog({ onDone, onClose }: { onDone: () => void; onClose: () => void }) {
  const [{ fetching }, remove] = useMutation(REMOVE_SSO_CONNECTION);
  return (
    <ConfirmDialog
      title="Remove single sign-on?"
      confirmLabel="Remove"
      busy={fetching}
      run={() => remove({})}
      onDone={onDone}
      onClose={onClose}
    >
      <p>Its domains go too, and everyone signs in with a password again (or asks for a reset link).</p>
    </ConfirmDialog>
  );
}

function Domains({
  domains,
  hasConnection,
  onChanged,
}: {
  domains: SsoDomain[];
  hasConnection: boolean;
  onChanged: () => void;
}) {
  const [, add] = useMutation(ADD_SSO_DOMAIN);
  const [, verify] = useMutation(VERIFY_SSO_DOMAIN);
  const [, remove] = useMutation(REMOVE_SSO_DOMAIN);
  const [, setRequired] = useMutation(SET_SSO_REQUIRED);
  const [domain, setDomain] = useState('');
  const [error, setError] = useState<string | null>(null);

  const run = async (action: () => Promise<{ error?: Parameters<typeof errorInWords>[0] }>) => {
    const result = await action();
    setError(result.error ? errorInWords(result.error) : null);
    onChanged();
    return !result.error;
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (await run(() => add({ domain: domain.trim() }))) setDomain('');
  };

  return (
    <section aria-labelledby="sso-domains-title">
      <h3 id="sso-domains-title">Email domains</h3>
      <p className="hint">
        People whose email is in a verified domain sign in through your identity provider. Prove a domain with the TXT
        record shown, then verify it.
      </p>
      <form className="inline-form" onSubmit={submit} aria-label="Add a domain">
        <label>
          Domain
          <input required placeholder="example.com" value={domain} onChange={(e) => setDomain(e.target.value)} />
        </label>
        <button type="submit">Add domain</button>
      </form>
      <ErrorLine error={error} />
      {domains.length > 0 && (
        <div className="table-wrap" role="region" aria-label="Single sign-on domains" tabIndex={0}>
          <table>
            <thead>
              <tr>
                <th scope="col">Domain</th>
                <th scope="col">Verified</th>
                <th scope="col">SSO required</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {domains.map((entry) => (
                <tr key={entry.domain}>
                  <th scope="row">{entry.domain}</th>
                  <td data-label="Verified">
                    {entry.verified ? (
                      'Verified'
                    ) : (
                      <>
                        TXT <code>{entry.verificationName}</code> = <code>{entry.verificationValue}</code>{' '}
                        <button type="button" onClick={() => void run(() => verify({ domain: entry.domain }))}>
                          Verify
                        </button>
                      </>
                    )}
                  </td>
                  <td data-label="SSO required">
                    <label>
                      <input
                        type="checkbox"
                        checked={entry.ssoRequired}
                        disabled={!entry.verified || !hasConnection}
                        onChange={(e) =>
                          void run(() => setRequired({ domain: entry.domain, required: e.target.checked }))
                        }
                      />
                      <span className="visually-hidden">SSO required for {entry.domain}</span>
                    </label>
                  </td>
                  <td>
                    <button
                      type="button"
                      className="danger"
                      onClick={() => void run(() => remove({ domain: entry.domain }))}
                    >
                      Remove
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p className="hint">
        When SSO is required for a domain, its people cannot sign in with a password; owners still can, so the
        organization is never locked out when the identity provider is down.
      </p>
    </section>
  );
}
