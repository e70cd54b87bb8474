import { useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useMutation, useQuery } from 'urql';
import { ConfirmDialog } from '../../lib/ConfirmDialog';
import { errorInWords } from '../../lib/errorInWords';
import { formatTime } from '../../lib/formatTime';
import { SecretOnceDialog } from '../../lib/SecretOnce';
import { canManageKeys } from '../auth/roles';
import { useSignedIn } from '../auth/SessionProvider';
import { StatusMessage } from '../layout/StatusMessage';
import { AddIntegrationDialog } from './AddIntegrationDialog';
import {
  INTEGRATION_EVENTS,
  INTEGRATIONS,
  kindLabel,
  KINDS,
  PAUSE_INTEGRATION,
  REMOVE_INTEGRATION,
  RESUME_INTEGRATION,
  ROTATE_INTEGRATION_SECRET,
  type Integration,
} from './integrationQueries';

/**
 * Connected platforms (owners and admins): the list with each one's state and counts, add (the URL and a
 * generated secret shown once), pause, resume, rotate the secret, remove (confirmed), and a connection's
 * recent events with their outcome, chosen in the address (`?integration=<id>`).
 */
export function IntegrationsPage() {
  const canManage = canManageKeys(useSignedIn().member.role);
  return (
    <section aria-labelledby="integrations-title">
      <h1 id="integrations-title">Integrations</h1>
      {canManage ? (
        <Integrations />
      ) : (
        <StatusMessage>Owners and admins connect platforms (webhooks, Intercom, Slack, Zendesk, email).</StatusMessage>
      )}
    </section>
  );
}

function Integrations() {
  const [params, setParams] = useSearchParams();
  const chosen = params.get('integration');
  const [{ data, error, fetching }, reexecute] = useQuery({ query: INTEGRATIONS });
  const reload = () => reexecute({ requestPolicy: 'network-only' });
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<Integration | null>(null);
  const [rotating, setRotating] = useState<Integration | null>(null);
  const [told, setTold] = useState<{ text: string; error: boolean } | null>(null);
  const [{ fetching: pausing }, pause] = useMutation(PAUSE_INTEGRATION);
  const [{ fetching: resuming }, resume] = useMutation(RESUME_INTEGRATION);
  const toggle = async (integration: Integration) => {
    const paused = integration.status === 'paused';
    const result = paused ? await resume({ id: integration.id }) : await pause({ id: integration.id });
    setTold(
      result.error
        ? { text: errorInWords(result.error), error: true }
        : { text: `${integration.name} is ${paused ? 'taking events in again' : 'paused'}.`, error: false },
    );
    reload();
  };
  const integrations = data?.integrations ?? [];
  const shown = integrations.find((integration) => integration.id === chosen);
  return (
    <>
      <div className="section-head">
        <p className="hint">Feedback arrives from where customers write it; each event becomes an item.</p>
        <button type="button" className="primary" onClick={() => setAdding(true)}>
          Add integration
        </button>
      </div>
      <div role="status" className={told?.error ? 'told error' : 'told'}>
        {told?.text}
      </div>
      {error && (
        <StatusMessage error retry={reload}>
          {errorInWords(error)}
        </StatusMessage>
      )}
      {!data && fetching && <StatusMessage>Loading integrations…</StatusMessage>}
      {data && integrations.length === 0 && (
        <StatusMessage>No integrations yet. Add one with "Add integration".</StatusMessage>
      )}
      {integrations.length > 0 && (
        <div className="table-wrap" role="region" aria-label="Integrations" tabIndex={0}>
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Platform</th>
                <th scope="col">State</th>
                <th scope="col">Items</th>
                <th scope="col">Last event</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {integrations.map((integration) => (
                <tr key={integration.id}>
                  <th scope="row">{integration.name}</th>
                  <td data-label="Platform">{kindLabel(integration.kind)}</td>
                  <td data-label="State" className={integration.status === 'active' ? 'state' : 'state error'}>
                    {integration.status}
                    {integration.lastError ? `: ${integration.lastError}` : ''}
                  </td>
                  <td data-label="Items">{integration.itemsReceived}</td>
                  <td data-label="Last event">{formatTime(integration.lastEventAt, 'none yet')}</td>
                  <td className="row-actions wrap">
                    <Link
                      to={`?integration=${encodeURIComponent(integration.id)}`}
                      aria-label={`Events of ${integration.name}`}
                    >
                      Events
                    </Link>
                    <button type="button" disabled={pausing || resuming} onClick={() => void toggle(integration)}>
                      {integration.status === 'paused' ? 'Resume' : 'Pause'}
                    </button>
                    {KINDS.some(
                      (entry) => entry.kind === integration.kind && (entry.secret || entry.kind === 'webhook'),
                    ) && (
                      <button type="button" onClick={() => setRotating(integration)}>
                        Rotate secret
                      </button>
                    )}
                    <button type="button" className="danger" onClick={() => setRemoving(integration)}>
                      Remove
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {shown && <Events key={shown.id} integration={shown} onRefresh={reload} />}
      {chosen && data && !shown && (
        <StatusMessage>There is no such integration (it may have been removed).</StatusMessage>
      )}
      {adding && <AddIntegrationDialog onAdded={reload} onClose={() => setAdding(false)} />}
      {rotating && <RotateDialog integration={rotating} onClose={() => setRotating(null)} />}
      {removing && (
        <RemoveDialog
          integration={removing}
          onRemoved={() => {
            if (removing.id === chosen) setParams({});
            reload();
          }}
          onClose={() => setRemoving(null)}
        />
      )}
    </>
  );
}

/** A connection's latest events: what each became (an item, ignored, failed and why). */
function Events({ integration, onRefresh }: { integration: Integration; onRefresh: () => void }) {
  const [{ data, error, fetching }, reexecute] = useQuery({
    query: INTEGRATION_EVENTS,
    variables: { id: integration.id, take: 20 },
  });
  const events = data?.integrationEvents ?? [];
  return (
    <section aria-labelledby="integration-events-title">
      <div className="section-head">
        <h2 id="integration-events-title">Recent events of {integration.name}</h2>
        <button
          type="button"
          onClick={() => {
            reexecute({ requestPolicy: 'network-only' });
            // The list's counts and last event move with the events.
            onRefresh();
          }}
        >
          Refresh
        </button>
      </div>
      {error && <StatusMessage error>{errorInWords(error)}</StatusMessage>}
      {!data && fetching && <StatusMessage>Loading events…</StatusMessage>}
      {data && events.length === 0 && <StatusMessage>No events received yet.</StatusMessage>}
      {events.length > 0 && (
        <div className="table-wrap" role="region" aria-label={`Events of ${integration.name}`} tabIndex={0}>
          <table>
            <thead>
              <tr>
                <th scope="col">Received</th>
                <th scope="col">Event</th>
                <th scope="col">Outcome</th>
              </tr>
            </thead>
            <tbody>
              {events.map((event) => (
                <tr key={event.id}>
                  <th scope="row">{formatTime(event.receivedAt)}</th>
                  <td data-label="Event">
                    <code>{event.type}</code>
                  </td>
                  <td data-label="Outcome" className={event.outcome === 'failed' ? 'state error' : 'state'}>
                    {event.outcome === 'done' && event.itemId ? (
                      <Link to={`/feedback/${encodeURIComponent(event.itemId)}`}>Item made</Link>
                    ) : (
                      event.outcome
                    )}
                    {event.detail ? `: ${event.detail}` : ''}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** A webhook's new secret is generated and shown once; the other platforms' is pasted from the platform. */
function RotateDialog({ integration, onClose }: { integration: Integration; onClose: () => void }) {
  const [{ fetching }, rotate] = useMutation(ROTATE_INTEGRATION_SECRET);
  const [secret, setSecret] = useState('');
  const [generated, setGenerated] = useState<string | null>(null);
  // The confirmation closes itself once it succeeds; this dialog then stays open to show a generated secret.
  const showing = useRef(false);
  const ours = integration.kind === 'webhook';
  if (generated)
    return (
      <SecretOnceDialog
        title="The new signing secret"
        secret={generated}
        label="Signing secret"
        noun="secret"
        onClose={onClose}
      >
        <p className="hint">The old secret no longer verifies: sign every event with this one.</p>
      </SecretOnceDialog>
    );
  const run = async () => {
    const result = await rotate({ id: integration.id, ...(ours ? {} : { secret: secret.trim() }) });
    const next = result.data?.rotateIntegrationSecret.secret;
    if (next) {
      showing.current = true;
      setGenerated(next);
    }
    return result;
  };
  return (
    <ConfirmDialog
      title={`Rotate the secret of ${integration.name}?`}
      confirmLabel="Rotate secret"
      busy={fetching}
      run={run}
      onDone={() => undefined}
      onClose={() => {
        if (!showing.current) onClose();
      }}
    >
      <p>
        The current secret stops verifying at once: events signed with it are refused until the platform uses the new
        one.
      </p>
      {!ours && (
        <label>
          The platform's new secret
          <input type="password" autoComplete="off" value={secret} onChange={(e) => setSecret(e.target.value)} />
        </label>
      )}
    </ConfirmDialog>
  );
}

function RemoveDialog({
  integration,
  onRemoved,
  onClose,
}: {
  integration: Integration;
  onRemoved: () => void;
  onClose: () => void;
}) {
  const [{ fetching }, remove] = useMutation(REMOVE_INTEGRATION);
  return (
    <ConfirmDialog
      title={`Remove ${integration.name}?`}
      confirmLabel="Remove"
      busy={fetching}
      run={() => remove({ id: integration.id })}
      onDone={onRemoved}
      onClose={onClose}
    >
      <p>
        Its URL stops answering, and its credentials and received events are deleted. The items it made stay. This
        cannot be undone.
      </p>
    </ConfirmDialog>
  );
}
