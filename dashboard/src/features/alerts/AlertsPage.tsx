import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useMutation, useQuery } from 'urql';
import { errorInWords } from '../../lib/errorInWords';
import { formatTime } from '../../lib/formatTime';
import { canChangeDirectory } from '../auth/roles';
import { useSignedIn } from '../auth/SessionProvider';
import { StatusMessage } from '../layout/StatusMessage';
import { ACKNOWLEDGE_ALERT, ALERT_LISTS, ALERTS, alertInWords, type FeedbackAlert } from './alertQueries';

/**
 * Alerts: the open ones (nobody acknowledged them), the acknowledged ones (still going on) and the history
 * (closed), each list at its own address (`?show=`); members who triage acknowledge an open alert.
 */
export function AlertsPage() {
  const canAcknowledge = canChangeDirectory(useSignedIn().member.role);
  const [params] = useSearchParams();
  const list = ALERT_LISTS.find((entry) => entry.show === params.get('show')) ?? ALERT_LISTS[0];
  const [{ data, error, fetching }, reexecute] = useQuery({
    query: ALERTS,
    variables: { status: list.status, take: 50 },
  });
  const reload = () => reexecute({ requestPolicy: 'network-only' });
  const [{ fetching: acknowledging }, acknowledge] = useMutation(ACKNOWLEDGE_ALERT);
  const [told, setTold] = useState<{ text: string; error: boolean } | null>(null);
  const acknowledgeAlert = async (alert: FeedbackAlert) => {
    const result = await acknowledge({ id: alert.id });
    setTold(
      result.error
        ? { text: errorInWords(result.error), error: true }
        : { text: `"${alert.label}" is acknowledged: it moves to Acknowledged until it passes.`, error: false },
    );
    reload();
  };
  const alerts = data?.feedbackAlerts ?? [];
  return (
    <section aria-labelledby="alerts-title">
      <div className="section-head">
        <h1 id="alerts-title">Alerts</h1>
      </div>
      <p className="hint">
        A theme far above its own last 28 days, a new theme that is already large, or a jump of negative feedback. The
        rules are in <Link to="/settings/alerts">Settings</Link>.
      </p>
      <nav aria-label="Alert lists" className="tabs">
        {ALERT_LISTS.map((entry) => (
          <Link
            key={entry.show}
            to={`?show=${entry.show}`}
            aria-current={entry.show === list.show ? 'page' : undefined}
            className={entry.show === list.show ? 'active' : undefined}
            onClick={() => setTold(null)}
          >
            {entry.label}
          </Link>
        ))}
      </nav>
      <div role="status" className={told?.error ? 'told error' : 'told'}>
        {told?.text}
      </div>
      {error && (
        <StatusMessage error retry={reload}>
          {errorInWords(error)}
        </StatusMessage>
      )}
      {!data && fetching && <StatusMessage>Loading alerts…</StatusMessage>}
      {data && alerts.length === 0 && (
        <StatusMessage>
          {list.show === 'open'
            ? 'No open alerts: nothing moved beyond its usual range.'
            : list.show === 'acknowledged'
              ? 'No acknowledged alert is still going on.'
              : 'No alert has closed yet.'}
        </StatusMessage>
      )}
      {alerts.length > 0 && (
        <div className="table-wrap" role="region" aria-label={`${list.label} alerts`} tabIndex={0}>
          <table>
            <thead>
              <tr>
                <th scope="col">Alert</th>
                <th scope="col">What moved</th>
                <th scope="col">Examples</th>
                <th scope="col">Opened</th>
                <th scope="col">{list.show === 'history' ? 'Closed' : 'State'}</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {alerts.map((alert) => (
                <tr key={alert.id}>
                  <th scope="row">
                    {alert.theme ? (
                      <Link to={`/feedback?theme=${encodeURIComponent(alert.theme.id)}`}>{alert.label}</Link>
                    ) : (
                      <Link to="/feedback?sentiment=negative">{alert.label}</Link>
                    )}
                  </th>
                  <td data-label="What moved">{alertInWords(alert)}</td>
                  <td data-label="Examples">
                    {alert.examples.map((item) => (
                      <div key={item.id}>
                        <Link to={`/feedback/${encodeURIComponent(item.id)}`}>{item.title}</Link>
                      </div>
                    ))}
                  </td>
                  <td data-label="Opened">{formatTime(alert.openedAt)}</td>
                  <td data-label={list.show === 'history' ? 'Closed' : 'State'}>
                    {list.show === 'history'
                      ? formatTime(alert.closedAt)
                      : alert.acknowledgedAt
                        ? `Acknowledged ${formatTime(alert.acknowledgedAt)}`
                        : 'Open'}
                  </td>
                  <td className="row-actions">
                    {canAcknowledge && alert.status === 'open' && (
                      <button
                        type="button"
                        disabled={acknowledging}
                        onClick={() => void acknowledgeAlert(alert)}
                        aria-label={`Acknowledge ${alert.label}`}
                      >
                        Acknowledge
                      </button>
                    )}
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
