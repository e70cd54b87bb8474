import type { FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { useQuery } from 'urql';
import { errorInWords } from '../../lib/errorInWords';
import { formatTime } from '../../lib/formatTime';
import { canReadAuditLog } from '../auth/roles';
import { useSignedIn } from '../auth/SessionProvider';
import { StatusMessage } from '../layout/StatusMessage';
import { AUDIT_ACTIONS, AUDIT_LOG, dayStart } from './auditQueries';
import { withParams } from '../../lib/searchParams';
import { Pager } from '../../lib/Pager';

const PAGE_SIZE = 50;
/** The address's filter parameters: `from` and `to` are days (YYYY-MM-DD), both included. */
const FILTERS = ['action', 'actor', 'from', 'to'] as const;
type Filter = (typeof FILTERS)[number];

export function AuditLogSection() {
  if (!canReadAuditLog(useSignedIn().member.role)) {
    return (
      <section aria-labelledby="audit-title">
        <h2 id="audit-title">Audit log</h2>
        <p>Only owners and admins can read the audit log.</p>
      </section>
    );
  }
  return <AuditLog />;
}

/**
 * The identity service's record of who did what, when and from where, newest first; filters and page in
 * the address, so a view can be bookmarked and shared.
 */
function AuditLog() {
  const [params, setParams] = useSearchParams();
  const filter = (name: Filter) => params.get(name)?.trim() || null;
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const [{ data, error, fetching }, reexecute] = useQuery({
    query: AUDIT_LOG,
    variables: {
      action: filter('action'),
      actor: filter('actor'),
      from: dayStart(filter('from')),
      // The last day chosen is included: the range ends where the next day starts.
      to: dayStart(filter('to'), 1),
      skip: (page - 1) * PAGE_SIZE,
      take: PAGE_SIZE,
    },
  });
  const [actions] = useQuery({ query: AUDIT_ACTIONS });
  const reload = () => reexecute({ requestPolicy: 'network-only' });
  const items = data?.auditLog.items ?? [];
  const total = data?.auditLog.total ?? 0;
  const filtered = FILTERS.some((name) => filter(name));

  const onFilter = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const value = (name: Filter) => String(form.get(name) ?? '').trim() || null;
    setParams(
      withParams(params, { action: value('action'), actor: value('actor'), from: value('from'), to: value('to') }),
    );
  };

  return (
    <section aria-labelledby="audit-title">
      <h2 id="audit-title">Audit log</h2>
      <p className="hint">Sign-ins, keys, members and invitations: who did what, when and from where, newest first.</p>
      {/*
        Each free field is keyed by its own value in the address, so going back or following a shared link
        shows its filters, while choosing an action (which applies at once) keeps what is being typed elsewhere.
      */}
      <form role="search" className="filters" onSubmit={onFilter} aria-label="Filter the audit log">
        <div className="filter">
          <label htmlFor="audit-action">Action</label>
          {/* An action applies at once, with what the other fields hold (as the inbox's selects do). */}
          <select
            id="audit-action"
            name="action"
            value={filter('action') ?? ''}
            onChange={(event) => event.currentTarget.form?.requestSubmit()}
          >
            <option value="">Any action</option>
            {(actions.data?.auditActions ?? []).map((action) => (
              <option key={action} value={action}>
                {action}
              </option>
            ))}
            {filter('action') && !actions.data?.auditActions.includes(filter('action')!) && (
              <option value={filter('action')!}>{filter('action')}</option>
            )}
          </select>
        </div>
        <div className="filter">
          <label htmlFor="audit-actor">Actor</label>
          <input
            id="audit-actor"
            name="actor"
            type="search"
            key={`actor-${filter('actor')}`}
            defaultValue={filter('actor') ?? ''}
            maxLength={320}
            placeholder="e.g. ada@example.com"
          />
        </div>
        <div className="filter">
          <label htmlFor="audit-from">From</label>
          <input
            id="audit-from"
            name="from"
            type="date"
            key={`from-${filter('from')}`}
            defaultValue={filter('from') ?? ''}
          />
        </div>
        <div className="filter">
          <label htmlFor="audit-to">To</label>
          <input id="audit-to" name="to" type="date" key={`to-${filter('to')}`} defaultValue={filter('to') ?? ''} />
        </div>
        <div className="filter-buttons">
          <button type="submit">Filter</button>
          {filtered && (
            <button type="button" onClick={() => setParams({})}>
              Clear filters
            </button>
          )}
        </div>
      </form>
      <p className="hint">
        The actor is a member's email as recorded, cli for an operator's command, or anonymous; the days are in your
        time zone, both included.
      </p>

      {error && (
        <StatusMessage error retry={reload}>
          {errorInWords(error)}
        </StatusMessage>
      )}
      {!data && fetching && <StatusMessage>Loading the audit log…</StatusMessage>}
      {data && items.length === 0 && (
        <StatusMessage>
          {filtered
            ? 'No entries match these filters.'
            : page > 1
              ? `There are no entries on page ${page}.`
              : 'Nothing recorded yet.'}
        </StatusMessage>
      )}
      {items.length > 0 && (
        <>
          <div className="table-wrap" role="region" aria-label="Audit log entries" tabIndex={0}>
            <table>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Action</th>
                  <th scope="col">Actor</th>
                  <th scope="col">Target</th>
                  <th scope="col">Address</th>
                </tr>
              </thead>
              <tbody>
                {items.map((entry) => (
                  <tr key={entry.id}>
                    <th scope="row">{formatTime(entry.at)}</th>
                    <td data-label="Action">
                      <code>{entry.action}</code>
                    </td>
                    <td data-label="Actor">{entry.actor}</td>
                    <td data-label="Target">{entry.target ?? ''}</td>
                    <td data-label="Address">{entry.address ?? 'Not over the network'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager
            label="Pages of the audit log"
            page={page}
            pageSize={PAGE_SIZE}
            shown={items.length}
            total={total}
            href={(n) => `?${withParams(params, { page: n > 1 ? String(n) : null })}`}
            previous="Newer entries"
            next="Older entries"
          />
        </>
      )}
    </section>
  );
}
