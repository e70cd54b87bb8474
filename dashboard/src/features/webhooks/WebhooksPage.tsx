import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useMutation, useQuery } from 'urql';
import { ConfirmDialog } from '../../lib/ConfirmDialog';
import { errorInWords } from '../../lib/errorInWords';
import { formatTime } from '../../lib/formatTime';
import { canManageKeys } from '../auth/roles';
import { useSignedIn } from '../auth/SessionProvider';
import { StatusMessage } from '../layout/StatusMessage';
import { AddEndpointDialog } from './AddEndpointDialog';
import { REMOVE_WEBHOOK_ENDPOINT, WEBHOOK_DELIVERIES, WEBHOOK_ENDPOINTS, type WebhookEndpoint } from './webhookQueries';

const DELIVERIES_PAGE = 20;

/** The state of an endpoint in words: enabled, failing since when, or disabled and why. */
function endpointState(endpoint: WebhookEndpoint): string {
  if (!endpoint.enabled) return `Disabled ${formatTime(endpoint.disabledAt, '')}${endpoint.disabledReason ? `: ${endpoint.disabledReason}` : ''}`;
  if (endpoint.failingSince) return `Failing since ${formatTime(endpoint.failingSince)}`;
  return 'Enabled';
}

/**
 * Webhook endpoints: the list, and for owners and admins add (the secret shown once) and remove
 * (confirmed); an endpoint's deliveries with every attempt, chosen in the address (`?endpoint=<id>`).
 */
export function WebhooksPage() {
  const canManage = canManageKeys(useSignedIn().member.role);
  const [params, setParams] = useSearchParams();
  const chosen = params.get('endpoint');
  const [{ data, error, fetching }, reexecute] = useQuery({ query: WEBHOOK_ENDPOINTS });
  const reload = () => reexecute({ requestPolicy: 'network-only' });
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<WebhookEndpoint | null>(null);
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
        Endpoints receive signed events as they happen.{canManage ? '' : ' Owners and admins add and remove endpoints.'}
      </p>
      {error && (
        <StatusMessage error retry={reload}>
          {errorInWords(error)}
        </StatusMessage>
      )}
      {!data && fetching && <StatusMessage>Loading webhook endpoints…</StatusMessage>}
      {data && endpoints.length === 0 && <StatusMessage>No webhook endpoints yet.{canManage ? ' Add one with "Add endpoint".' : ''}</StatusMessage>}
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
                  <td data-label="State" className={endpoint.enabled ? '' : 'error'}>
                    {endpointState(endpoint)}
                  </td>
                  <td data-label="Added">{formatTime(endpoint.createdAt)}</td>
                  <td className="row-actions">
                    <Link to={`?endpoint=${encodeURIComponent(endpoint.id)}`} aria-label={`Deliveries to ${endpoint.url}`}>
                      Deliveries
                    </Link>
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
      {shown && <Deliveries endpoint={shown} />}
      {chosen && data && !shown && <StatusMessage>There is no such endpoint (it may have been removed).</StatusMessage>}
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

function Deliveries({ endpoint }: { endpoint: WebhookEndpoint }) {
  const [page, setPage] = useState(1);
  const [{ data, error, fetching }, reexecute] = useQuery({
    query: WEBHOOK_DELIVERIES,
    variables: { endpointId: endpoint.id, skip: (page - 1) * DELIVERIES_PAGE, take: DELIVERIES_PAGE },
  });
  const items = data?.webhookDeliveries.items ?? [];
  const total = data?.webhookDeliveries.total ?? 0;
  return (
    <section aria-labelledby="deliveries-title" className="deliveries">
      <div className="section-head">
        <h2 id="deliveries-title">Deliveries to {endpoint.url}</h2>
        <button type="button" onClick={() => reexecute({ requestPolicy: 'network-only' })}>
          Refresh
        </button>
      </div>
      {error && <StatusMessage error>{errorInWords(error)}</StatusMessage>}
      {!data && fetching && <StatusMessage>Loading deliveries…</StatusMessage>}
      {data && items.length === 0 && <StatusMessage>No deliveries yet: events are listed here as they are sent.</StatusMessage>}
      {items.length > 0 && (
        <ol className="delivery-list">
          {items.map((delivery) => (
            <li key={delivery.id} className="card">
              <p>
                <strong>{delivery.eventType}</strong> · <span className={`badge ${delivery.status}`}>{delivery.status}</span> · {formatTime(delivery.createdAt)}
                {delivery.nextAttemptAt && <> · next attempt {formatTime(delivery.nextAttemptAt)}</>}
              </p>
              {delivery.attempts.length === 0 ? (
                <p className="hint">Not attempted yet.</p>
              ) : (
                <ul aria-label="Attempts">
                  {delivery.attempts.map((attempt) => (
                    <li key={attempt.at}>
                      {formatTime(attempt.at)}: {attempt.statusCode ? `HTTP ${attempt.statusCode}` : 'no answer'} in {attempt.durationMs} ms
                      {attempt.error ? ` (${attempt.error})` : ''}
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ol>
      )}
      {total > DELIVERIES_PAGE && (
        <nav className="pager" aria-label="Pages of deliveries">
          <p>
            {(page - 1) * DELIVERIES_PAGE + 1}–{(page - 1) * DELIVERIES_PAGE + items.length} of {total}
          </p>
          {page > 1 && (
            <button type="button" onClick={() => setPage(page - 1)}>
              Newer deliveries
            </button>
          )}
          {page * DELIVERIES_PAGE < total && (
            <button type="button" onClick={() => setPage(page + 1)}>
              Older deliveries
            </button>
          )}
        </nav>
      )}
    </section>
  );
}

function RemoveDialog({ endpoint, onRemoved, onClose }: { endpoint: WebhookEndpoint; onRemoved: () => void; onClose: () => void }) {
  const [{ fetching }, remove] = useMutation(REMOVE_WEBHOOK_ENDPOINT);
  return (
    <ConfirmDialog title={`Remove ${endpoint.url}?`} confirmLabel="Remove" busy={fetching} run={() => remove({ id: endpoint.id })} onDone={onRemoved} onClose={onClose}>
      <p>The endpoint receives nothing more; its pending deliveries are not sent and its delivery history goes. This cannot be undone.</p>
    </ConfirmDialog>
  );
}
