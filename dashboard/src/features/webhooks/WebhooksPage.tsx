import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useMutation, useQuery } from 'urql';
import { ConfirmDialog } from '../../lib/ConfirmDialog';
import { errorInWords } from '../../lib/errorInWords';
import { formatTime } from '../../lib/formatTime';
import { canChangeDirectory, canManageKeys } from '../auth/roles';
import { useSignedIn } from '../auth/SessionProvider';
import { StatusMessage } from '../layout/StatusMessage';
import { AddEndpointDialog } from './AddEndpointDialog';
import { Deliveries } from './Deliveries';
import { RotateSecretDialog } from './RotateSecretDialog';
import {
  ENABLE_WEBHOOK_ENDPOINT,
  REMOVE_WEBHOOK_ENDPOINT,
  SEND_WEBHOOK_TEST_EVENT,
  WEBHOOK_ENDPOINTS,
  type WebhookEndpoint,
} from './webhookQueries';

/** The state of an endpoint in words: enabled, failing since when, or disabled and why. */
function endpointState(endpoint: WebhookEndpoint): string {
  if (!endpoint.enabled)
    return `Disabled ${formatTime(endpoint.disabledAt, '')}${endpoint.disabledReason ? `: ${endpoint.disabledReason}` : ''}`;
  if (endpoint.failingSince) return `Failing since ${formatTime(endpoint.failingSince)}`;
  if (endpoint.previousSecretExpiresAt)
    return `Enabled; the replaced secret also signs until ${formatTime(endpoint.previousSecretExpiresAt)}`;
  return 'Enabled';
}

/**
 * Webhook endpoints: the list, and for owners and admins add (the secret shown once), remove (confirmed),
 * re-enable and rotate the secret (confirmed, the new one shown once); writers send a test event and
 * redeliver; an endpoint's deliveries with every attempt, chosen in the address (`?endpoint=<id>`).
 */
export function WebhooksPage() {
  const role = useSignedIn().member.role;
  const canManage = canManageKeys(role);
  const canResend = canChangeDirectory(role);
  const [params, setParams] = useSearchParams();
  const chosen = params.get('endpoint');
  const [{ data, error, fetching }, reexecute] = useQuery({ query: WEBHOOK_ENDPOINTS });
  const reload = () => reexecute({ requestPolicy: 'network-only' });
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<WebhookEndpoint | null>(null);
  const [rotating, setRotating] = useState<WebhookEndpoint | null>(null);
  const [told, setTold] = useState<{ text: string; error: boolean } | null>(null);
  // Bumped after a test event, so the deliveries are read again with it.
  const [sent, setSent] = useState(0);
  const [{ fetching: sending }, sendTest] = useMutation(SEND_WEBHOOK_TEST_EVENT);
  const [{ fetching: enabling }, enable] = useMutation(ENABLE_WEBHOOK_ENDPOINT);
  const testEndpoint = async (endpoint: WebhookEndpoint) => {
    const result = await sendTest({ endpointId: endpoint.id });
    if (result.error) {
      setTold({ text: errorInWords(result.error), error: true });
      return;
    }
    setTold({ text: `A test event is on its way to ${endpoint.url}; its delivery is listed below.`, error: false });
    setSent((count) => count + 1);
    setParams({ endpoint: endpoint.id });
  };
  const enableEndpoint = async (endpoint: WebhookEndpoint) => {
    const result = await enable({ id: endpoint.id });
    setTold(
      result.error
        ? { text: errorInWords(result.error), error: true }
        : { text: `${endpoint.url} is enabled again and receives events from now on.`, error: false },
    );
    reload();
  };
  const endpoints = data?.webhookEndpoints ?? [];
  const shown = endpoints.find((endpoint) => endpoint.id === chosen);
  return (
    <section aria-labelledby="webhooks-title">
      <div className="section-head">
        <h1 id="webhooks-title">Webhooks</h1>
        {canManage && (
          <button type="button" className="primary" onClick={() => setAdding(true)}>
            Add endpoint
          </button>
        )}
      </div>
      <p className="hint">
        Endpoints receive signed events as they happen.
        {canManage ? '' : ' Owners and admins add, remove and re-enable endpoints and rotate their secrets.'}
      </p>
      <div role="status" className={told?.error ? 'told error' : 'told'}>
        {told?.text}
      </div>
      {error && (
        <StatusMessage error retry={reload}>
          {errorInWords(error)}
        </StatusMessage>
      )}
      {!data && fetching && <StatusMessage>Loading webhook endpoints…</StatusMessage>}
      {data && endpoints.length === 0 && (
        <StatusMessage>No webhook endpoints yet.{canManage ? ' Add one with "Add endpoint".' : ''}</StatusMessage>
      )}
      {endpoints.length > 0 && (
        <div className="table-wrap" role="region" aria-label="Webhook endpoints" tabIndex={0}>
          <table>
            <thead>
              <tr>
                <th scope="col">Endpoint</th>
                <th scope="col">Events</th>
                <th scope="col">State</th>
                <th scope="col">Added</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {endpoints.map((endpoint) => (
                <tr key={endpoint.id}>
                  <th scope="row">
                    <code>{endpoint.url}</code>
                  </th>
                  <td data-label="Events">{endpoint.events.join(', ')}</td>
                  <td data-label="State" className={endpoint.enabled ? 'state' : 'state error'}>
                    {endpointState(endpoint)}
                  </td>
                  <td data-label="Added">{formatTime(endpoint.createdAt)}</td>
                  <td className="row-actions wrap">
                    <Link
                      to={`?endpoint=${encodeURIComponent(endpoint.id)}`}
                      aria-label={`Deliveries to ${endpoint.url}`}
                    >
                      Deliveries
                    </Link>
                    {canResend && endpoint.enabled && (
                      <button type="button" disabled={sending} onClick={() => void testEndpoint(endpoint)}>
                        Send test event
                      </button>
                    )}
                    {canManage && !endpoint.enabled && (
                      <button type="button" disabled={enabling} onClick={() => void enableEndpoint(endpoint)}>
                        Re-enable
                      </button>
                    )}
                    {canManage && (
                      <button type="button" onClick={() => setRotating(endpoint)}>
                        Rotate secret
                      </button>
                    )}
                    {canManage && (
                      <button type="button" className="danger" onClick={() => setRemoving(endpoint)}>
                        Remove
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {shown && <Deliveries key={`${shown.id}-${sent}`} endpoint={shown} canResend={canResend} />}
      {chosen && data && !shown && <StatusMessage>There is no such endpoint (it may have been removed).</StatusMessage>}
      {rotating && <RotateSecretDialog endpoint={rotating} onRotated={reload} onClose={() => setRotating(null)} />}
      {adding && <AddEndpointDialog onAdded={reload} onClose={() => setAdding(false)} />}
      {removing && (
        <RemoveDialog
          endpoint={removing}
          onRemoved={() => {
            if (removing.id === chosen) setParams({});
            reload();
          }}
          onClose={() => setRemoving(null)}
        />
      )}
    </section>
  );
}

function RemoveDialog({
  endpoint,
  onRemoved,
  onClose,
}: {
  endpoint: WebhookEndpoint;
  onRemoved: () => void;
  onClose: () => void;
}) {
  const [{ fetching }, remove] = useMutation(REMOVE_WEBHOOK_ENDPOINT);
  return (
    <ConfirmDialog
      title={`Remove ${endpoint.url}?`}
      confirmLabel="Remove"
      busy={fetching}
      run={() => remove({ id: endpoint.id })}
      onDone={onRemoved}
      onClose={onClose}
    >
      <p>
        The endpoint receives nothing more; its pending deliveries are not sent and its delivery history goes. This
        cannot be undone.
      </p>
    </ConfirmDialog>
  );
}
