import { useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useMutation, useQuery } from 'urql';
import { errorInWords } from '../../lib/errorInWords';
import { Pager } from '../../lib/Pager';
import { withParams } from '../../lib/searchParams';
import { canChangeDirectory } from '../auth/roles';
import { useSignedIn } from '../auth/SessionProvider';
import { StatusMessage } from '../layout/StatusMessage';
import { CHANGE_STATUSES, FEEDBACK_LIST, STATUS_ACTIONS } from './feedbackQueries';
import { FILTERS, InboxFilters, type Filter, type FilterValues } from './InboxFilters';
import { InboxTable } from './InboxTable';
import { TriageShortcuts } from './TriageShortcuts';
import { useTriageKeys } from './useTriageKeys';

const PAGE_SIZE = 25;
type Status = 'read' | 'unread' | 'archived';

/**
 * The feedback inbox: filters, search and page in the address (bookmarkable), newest first; everyone but
 * viewers selects items and changes their status, with the mouse or the keyboard (j/k, x, r/u/a).
 */
export function FeedbackPage() {
  const session = useSignedIn();
  const canChange = canChangeDirectory(session.member.role);
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const values = Object.fromEntries(FILTERS.map((name) => [name, params.get(name)?.trim() || null])) as FilterValues;
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const [{ data, error, fetching }, reexecute] = useQuery({
    query: FEEDBACK_LIST,
    variables: {
      status: values.status,
      sentiment: values.sentiment,
      source: values.source,
      theme: values.theme,
      search: values.q,
      skip: (page - 1) * PAGE_SIZE,
      take: PAGE_SIZE,
    },
  });
  const [{ fetching: changing }, changeStatuses] = useMutation(CHANGE_STATUSES);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [current, setCurrent] = useState(-1);
  const [told, setTold] = useState<{ text: string; error: boolean } | null>(null);
  const links = useRef<Array<HTMLAnchorElement | null>>([]);
  const searchField = useRef<HTMLInputElement>(null);

  const items = data?.page.items ?? [];
  const total = data?.page.total ?? 0;
  const reload = () => reexecute({ requestPolicy: 'network-only' });
  const filtered = FILTERS.some((name) => values[name]);

  // Another list: nothing of the old one stays selected or current.
  const showList = (changes: Partial<Record<Filter, string | null>>) => {
    setSelected(new Set());
    setCurrent(-1);
    setParams(withParams(params, changes));
  };
  const toggle = (id: string) =>
    setSelected((before) => {
      const next = new Set(before);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const toggleAll = () =>
    setSelected((before) =>
      items.every((item) => before.has(item.id)) ? new Set() : new Set(items.map((item) => item.id)),
    );

  const change = async (status: Status, ids: string[]) => {
    if (!canChange || ids.length === 0 || changing) return;
    const result = await changeStatuses({ ids, status });
    if (result.error) {
      setTold({ text: errorInWords(result.error), error: true });
      return;
    }
    const changed = result.data?.changeFeedbackStatuses ?? 0;
    const asked = ids.length === 1 ? '1 item' : `${ids.length} items`;
    setTold({
      text: `${asked} ${STATUS_ACTIONS[status].done}${changed < ids.length ? ` (${changed} changed, the others already were)` : ''}.`,
      error: false,
    });
    setSelected(new Set());
    reload();
  };
  const targets = () => (selected.size > 0 ? [...selected] : current >= 0 && items[current] ? [items[current].id] : []);

  const moveTo = (index: number) => {
    setCurrent(index);
    links.current[index]?.focus();
  };
  useTriageKeys({
    move: (step) => items.length > 0 && moveTo(Math.min(items.length - 1, Math.max(0, current + step))),
    toggle: () => canChange && items[current] && toggle(items[current].id),
    status: (status) => void change(status, targets()),
    open: () => items[current] && navigate(`/feedback/${items[current].id}`),
    search: () => searchField.current?.focus(),
  });

  return (
    <section aria-labelledby="feedback-title">
      <div className="section-head">
        <h1 id="feedback-title">Feedback</h1>
      </div>
      {!canChange && (
        <p className="hint">Viewers can read feedback; an owner, admin or member can change its status.</p>
      )}
      <InboxFilters
        values={values}
        searchField={searchField}
        onPick={(name, value) => showList({ [name]: value })}
        onSearch={showList}
        onClear={() => setParams({})}
      />
      <p className="hint">Search matches part of the title, text, author or email, in any case.</p>

      {canChange && (
        <div className="bulk" role="toolbar" aria-label="Change the status of the selected items">
          <span>{selected.size === 0 ? 'No items selected' : `${selected.size} selected`}</span>
          {(['read', 'unread', 'archived'] as const).map((status) => (
            <button
              key={status}
              type="button"
              disabled={selected.size === 0 || changing}
              onClick={() => void change(status, [...selected])}
            >
              {STATUS_ACTIONS[status].label}
            </button>
          ))}
        </div>
      )}
      <div role="status" className={told?.error ? 'told error' : 'told'}>
        {told?.text}
      </div>

      {error && (
        <StatusMessage error retry={reload}>
          {errorInWords(error)}
        </StatusMessage>
      )}
      {!data && fetching && <StatusMessage>Loading feedback…</StatusMessage>}
      {data && items.length === 0 && (
        <StatusMessage>
          {filtered
            ? 'No feedback matches these filters.'
            : page > 1
              ? `There is no feedback on page ${page}.`
              : 'No feedback yet. It appears here as it arrives through the API.'}
        </StatusMessage>
      )}
      {items.length > 0 && (
        <>
          <InboxTable
            items={items}
            selected={selected}
            current={current}
            links={links}
            canChange={canChange}
            onToggle={toggle}
            onToggleAll={toggleAll}
            onFocusRow={setCurrent}
          />
          <Pager
            label="Pages of feedback"
            page={page}
            pageSize={PAGE_SIZE}
            shown={items.length}
            total={total}
            href={(n) => `?${withParams(params, { page: n > 1 ? String(n) : null })}`}
          />
        </>
      )}
      <TriageShortcuts canChange={canChange} />
    </section>
  );
}
