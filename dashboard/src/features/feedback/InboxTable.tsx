import type { RefObject } from 'react';
import { Link } from 'react-router';
import { formatTime } from '../../lib/formatTime';
import { capitalized, type FeedbackRow } from './feedbackQueries';

/**
 * One page of the inbox: unread rows stand out, the row the keyboard is on is marked, and those who may
 * change statuses get a checkbox per row and one for the page.
 */
export function InboxTable({
  items,
  selected,
  current,
  links,
  canChange,
  onToggle,
  onToggleAll,
  onFocusRow,
}: {
  items: FeedbackRow[];
  selected: ReadonlySet<string>;
  current: number;
  /** Each row's link, so the keyboard can move the focus to it. */
  links: RefObject<Array<HTMLAnchorElement | null>>;
  canChange: boolean;
  onToggle: (id: string) => void;
  onToggleAll: () => void;
  onFocusRow: (index: number) => void;
}) {
  const allSelected = items.length > 0 && items.every((item) => selected.has(item.id));
  return (
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
                  onChange={onToggleAll}
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
                    onChange={() => onToggle(item.id)}
                  />
                </td>
              )}
              <th scope="row">
                <Link
                  to={`/feedback/${item.id}`}
                  ref={(element) => {
                    links.current[index] = element;
                  }}
                  onFocus={() => onFocusRow(index)}
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
  );
}
