import { useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useMutation, useQuery } from 'urql';
import { errorInWords } from '../../lib/errorInWords';
import { formatTime } from '../../lib/formatTime';
import { canChangeDirectory } from '../auth/roles';
import { useSignedIn } from '../auth/SessionProvider';
import { StatusMessage } from '../layout/StatusMessage';
import {
  capitalized,
  CHANGE_STATUSES,
  FEEDBACK_LIST,
  SENTIMENTS,
  STATUS_ACTIONS,
  STATUSES,
  THEME_CHOICES,
} from './feedbackQueries';
import { TRIAGE_KEYS, useTriageKeys } from './useTriageKeys';
import { withParams } from '../../lib/searchParams';
import { Pager } from '../../lib/Pager';

const PAGE_SIZE = 25;
/** The address's filter parameters, in the order the form shows them. */
const FILTERS = ['status', 'sentiment', 'source', 'theme', 'q'] as const;
type Filter = (typeof FILTERS)[number];

/**
 * The feedback inbox: filters, search and page in the address (bookmarkable), newest first; everyone but
 * viewers selects items and changes their status, with the mouse or the keyboard (j/k, x, r/u/a).
 */
export function FeedbackPage() {
  const session = useSignedIn();
  const canChange = canChangeDirectory(session.member.role);
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const filter = (name: Filter) => params.get(name)?.trim() || null;
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const [{ data, error, fetching }, reexecute] = useQuery({
    query: FEEDBACK_LIST,
    variables: {
      status: filter('status'),
      sentiment: filter('sentiment'),
      source: filter('source'),
      theme: filter('theme'),
      search: filter('q'),
      skip: (page - 1) * PAGE_SIZE,
      take: PAGE_SIZE,
    },
  });
  const [themes] = useQuery({ query: THEME_CHOICES });
  const [{ fetching: changing }, changeStatuses] = useMutation(CHANGE_STATUSES);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [current, setCurrent] = useState(-1);
  const [told, setTold] = useState<{ text: string; error: boolean } | null>(null);
  const links = useRef<Array<HTMLAnchorElement | null>>([]);
  const searchField = useRef<HTMLInputElement>(null);

  const items = data?.page.items ?? [];
  const total = data?.page.total ?? 0;
  const reload = () => reexecute({ requestPolicy: 'network-only' });
  const filtered = FILTERS.some((name) => filter(name));

  const setFilter = (name: Filter, value: string | null) => {
    setSelected(new Set());
    setCurrent(-1);
    setParams(withParams(params, { [name]: value }));
  };
  const onSearch = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setSelected(new Set());
    setParams(
      withParams(params, {
        q: String(form.get('q') ?? '').trim() || null,
        source: String(form.get('source') ?? '').trim() || null,
      }),
    );
  };

  const toggle = (id: string) =>
    setSelected((before) => {
      const next = new Set(before);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const allSelected = items.length > 0 && items.every((item) => selected.has(item.id));

  const change = async (status: 'read' | 'unread' | 'archived', ids: string[]) => {
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

  const themeItems = themes.data?.feedbackThemes.items ?? [];
  return (
    <section aria-labelledby="feedback-title">
      <div className="section-head">
        <h1 id="feedback-title">Feedback</h1>
      </div>
      {!canChange && (
        <p className="hint">Viewers can read feedback; an owner, admin or member can change its status.</p>
      )}
      <form role="search" className="filters" onSubmit={onSearch} aria-label="Filter feedback">
        <div className="filter">
          <label htmlFor="filter-status">Status</label>
          <select
            id="filter-status"
            value={filter('status') ?? ''}
            onChange={(event) => setFilter('status', event.target.value || null)}
          >
            <option value="">Any status</option>
            {STATUSES.map((status) => (
              <option key={status} value={status}>
                {capitalized(status)}
              </option>
            ))}
          </select>
        </div>
        <div className="filter">
          <label htmlFor="filter-sentiment">Sentiment</label>
          <select
            id="filter-sentiment"
            value={filter('sentiment') ?? ''}
            onChange={(event) => setFilter('sentiment', event.target.value || null)}
          >
            <option value="">Any sentiment</option>
            {SENTIMENTS.map((sentiment) => (
              <option key={sentiment} value={sentiment}>
                {capitalized(sentiment)}
              </option>
            ))}
          </select>
        </div>
        <div className="filter">
          <label htmlFor="filter-theme">Theme</label>
          <select
            id="filter-theme"
            value={filter('theme') ?? ''}
            onChange={(event) => setFilter('theme', event.target.value || null)}
          >
            <option value="">Any theme</option>
            {themeItems.map((theme) => (
              <option key={theme.id} value={theme.id}>
                {theme.label}
              </option>
            ))}
            {filter('theme') && !themeItems.some((theme) => theme.id === filter('theme')) && (
              <option value={filter('theme')!}>This theme</option>
            )}
          </select>
        </div>
        <div className="filter">
          <label htmlFor="filter-source">Source</label>
          <input
            id="filter-source"
            name="source"
            defaultValue={filter('source') ?? ''}
            key={`source-${filter('source')}`}
            maxLength={200}
            placeholder="e.g. email"
          />
        </div>
        <div className="filter grow">
          <label htmlFor="filter-q">Search feedback</label>
          <input
            id="filter-q"
            ref={searchField}
            name="q"
            type="search"
            defaultValue={filter('q') ?? ''}
            key={`q-${filter('q')}`}
            maxLength={200}
          />
        </div>
        <div className="filter-buttons">
          <button type="submit">Search</button>
          {filtered && (
            <button type="button" onClick={() => setParams({})}>
              Clear filters
            </button>
          )}
        </div>
      </form>
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
          <div className="table-wrap" role="region" aria-label="Feedback items" tabIndex={0}>
            <table className="inbox">
              <thead>
                <tr>
                  {canChange && (
                    <th scope="col">
                      <input
                        type="checkbox"
                        aria-label="Select all items on this page"
                        checked={allSelected}
                        onChange={() => setSelected(allSelected ? new Set() : new Set(items.map((item) => item.id)))}
                      />
                    </th>
                  )}
                  <th scope="col">Feedback</th>
                  <th scope="col">Status</th>
                  <th scope="col">Sentiment</th>
                  <th scope="col">Source</th>
                  <th scope="col">From</th>
                  <th scope="col">Published</th>
                </tr>
              </thead>
              <tbody>
                {items.map((item, index) => (
                  <tr
                    key={item.id}
                    className={[index === current ? 'current' : '', item.status === 'unread' ? 'unread' : ''].join(' ')}
                  >
                    {canChange && (
                      <td className="pick">
                        <input
                          type="checkbox"
                          aria-label={`Select "${item.title}"`}
                          checked={selected.has(item.id)}
                          onChange={() => toggle(item.id)}
                        />
                      </td>
                    )}
                    <th scope="row">
                      <Link
                        to={`/feedback/${item.id}`}
                        ref={(element) => {
                          links.current[index] = element;
                        }}
                        onFocus={() => setCurrent(index)}
                      >
                        {item.title}
                      </Link>
                    </th>
                    <td data-label="Status">
                      <span className={`badge ${item.status}`}>{capitalized(item.status)}</span>
                    </td>
                    <td data-label="Sentiment">{item.sentiment ? capitalized(item.sentiment) : 'Not known'}</td>
                    <td data-label="Source">{item.source}</td>
                    <td data-label="From">{item.author ?? item.email ?? ''}</td>
                    <td data-label="Published">{formatTime(item.publishedDate)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
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
      <section aria-labelledby="shortcuts-title" className="shortcuts">
        <h2 id="shortcuts-title">Keyboard shortcuts</h2>
        <p className="hint">Outside the filter fields. Without a selection, r, u and a change the item you are on.</p>
        <dl>
          {TRIAGE_KEYS.filter(({ key }) => canChange || !['x', 'r', 'u', 'a'].includes(key)).map(({ key, does }) => (
            <div key={key}>
              <dt>
                <kbd>{key}</kbd>
              </dt>
              <dd>{does}</dd>
            </div>
          ))}
        </dl>
      </section>
    </section>
  );
}
