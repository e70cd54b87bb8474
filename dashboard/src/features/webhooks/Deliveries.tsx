import { useEffect, useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { errorInWords } from '../../lib/errorInWords';
import { formatTime } from '../../lib/formatTime';
import { StatusMessage } from '../layout/StatusMessage';
import { REDELIVER_WEBHOOK_DELIVERY, WEBHOOK_DELIVERIES, type WebhookEndpoint } from './webhookQueries';

const DELIVERIES_PAGE = 20;
/** While a delivery on the page is pending, the list is read again this often, so its attempts show as they happen. */
const PENDING_REFRESH_MS = 2_000;

/** An endpoint's deliveries, newest first, with every attempt; writers send a finished one again. */
export function Deliveries({ endpoint, canResend }: { endpoint: WebhookEndpoint; canResend: boolean }) {
  const [page, setPage] = useState(1);
  const [{ data, error, fetching }, reexecute] = useQuery({
    query: WEBHOOK_DELIVERIES,
    variables: { endpointId: endpoint.id, skip: (page - 1) * DELIVERIES_PAGE, take: DELIVERIES_PAGE },
  });
  const [{ fetching: redelivering }, redeliver] = useMutation(REDELIVER_WEBHOOK_DELIVERY);
  const [told, setTold] = useState<{ text: string; error: boolean } | null>(null);
  const items = data?.webhookDeliveries.items ?? [];
  const total = data?.webhookDeliveries.total ?? 0;
  const refresh = () => reexecute({ requestPolicy: 'network-only' });
  const pending = items.some((delivery) => delivery.status === 'pending');
  useEffect(() => {
    if (!pending) return undefined;
    const timer = setInterval(() => reexecute({ requestPolicy: 'network-only' }), PENDING_REFRESH_MS);
    return () => clearInterval(timer);
  }, [pending, reexecute]);

  const sendAgain = async (id: string, eventType: string) => {
    const result = await redeliver({ id });
    setTold(
      result.error
        ? { text: errorInWords(result.error), error: true }
        : { text: `The ${eventType} event is queued to be sent again.`, error: false },
    );
    refresh();
  };

  return (
    <section aria-labelledby="deliveries-title" className="deliveries">
      <div className="section-head">
        <h2 id="deliveries-title">Deliveries to {endpoint.url}</h2>
        <button type="button" onClick={refresh}>
          Refresh
        </button>
      </div>
      <div role="status" className={told?.error ? 'told error' : 'told'}>
        {told?.text}
      </div>
      {error && <StatusMessage error>{errorInWords(error)}</StatusMessage>}
      {!data && fetching && <StatusMessage>Loading deliveries…</StatusMessage>}
      {data && items.length === 0 && (
        <StatusMessage>No deliveries yet: events are listed here as they are sent.</StatusMessage>
      )}
      {items.length > 0 && (
        <ol className="delivery-list" aria-label="Deliveries">
          {items.map((delivery) => (
            <li key={delivery.id} className="card">
              <p>
                <strong>{delivery.eventType}</strong> ·{' '}
                <span className={`badge ${delivery.status}`}>{delivery.status}</span> · {formatTime(delivery.createdAt)}
                {delivery.nextAttemptAt && <> · next attempt {formatTime(delivery.nextAttemptAt)}</>}
              </p>
              <p className="hint">
                Event <code>{delivery.eventId}</code>
              </p>
              {delivery.attempts.length === 0 ? (
                <p className="hint">Not attempted yet.</p>
              ) : (
                <ul aria-label="Attempts">
                  {delivery.attempts.map((attempt) => (
                    <li key={attempt.at}>
                      {formatTime(attempt.at)}: {attempt.statusCode ? `HTTP ${attempt.statusCode}` : 'no answer'} in{' '}
                      {attempt.durationMs} ms
                      {attempt.error ? ` (${attempt.error})` : ''}
                    </li>
                  ))}
                </ul>
              )}
              {canResend && delivery.status !== 'pending' && (
                <button
                  type="button"
                  disabled={redelivering}
                  onClick={() => void sendAgain(delivery.id, delivery.eventType)}
                >
                  Redeliver
                </button>
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
