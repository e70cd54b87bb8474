import { useState } from 'react';
import { Link } from 'react-router';
import { useMutation, useQuery } from 'urql';
import { ErrorLine } from '../../lib/ErrorLine';
import { errorInWords } from '../../lib/errorInWords';
import { ASSIGN_THEME, THEME_ITEMS, UNASSIGN_THEME, type CuratedTheme, type ThemeItem } from './themeQueries';

const percent = (confidence: number) => `${Math.round(confidence * 100)}%`;

/**
 * A curated theme's newest items, with how sure the service is of each and why; a person moves an item to
 * another theme (a correction the service keeps and learns from) or takes it out of this one.
 */
export function ThemeItems({
  theme,
  themes,
  canChange,
}: {
  theme: CuratedTheme;
  themes: CuratedTheme[];
  canChange: boolean;
}) {
  const [{ data, fetching, error }, reexecute] = useQuery({ query: THEME_ITEMS, variables: { theme: theme.id } });
  const [failure, setFailure] = useState<string | null>(null);
  const [, assign] = useMutation(ASSIGN_THEME);
  const [, unassign] = useMutation(UNASSIGN_THEME);
  const reload = () => reexecute({ requestPolicy: 'network-only' });
  const correct = async (item: ThemeItem, to: string | null) => {
    const moved = to ? await assign({ itemId: item.id, themeId: to }) : null;
    const taken = moved?.error ? moved : await unassign({ itemId: item.id, themeId: theme.id });
    setFailure(taken.error ? errorInWords(taken.error) : null);
    reload();
  };
  if (error) return <ErrorLine error={errorInWords(error)} />;
  const items = data?.feedbackItems.items ?? [];
  return (
    <section aria-label={`Items of ${theme.label}`}>
      <h2>
        {theme.label} <span className="hint">({data?.feedbackItems.total ?? '…'} items)</span>
      </h2>
      {!fetching && items.length === 0 && <p className="hint">No item has this theme yet.</p>}
      <ErrorLine error={failure} />
      <table>
        <thead>
          <tr>
            <th>Item</th>
            <th>Confidence</th>
            <th>Assigned by</th>
            {canChange && <th>Correct</th>}
          </tr>
        </thead>
        <tbody>
          {items.map((item) => {
            const match = item.themeMatches.find((m) => m.theme.id === theme.id);
            return (
              <tr key={item.id}>
                <td>
                  <Link to={`/feedback/${item.id}`}>{item.title || item.content.slice(0, 80)}</Link>
                </td>
                <td>{match ? percent(match.confidence) : 'under a child theme'}</td>
                <td>{match?.assignedBy ?? ''}</td>
                {canChange && (
                  <td>
                    <MoveItem item={item} theme={theme} themes={themes} onMove={(to) => void correct(item, to)} />
                  </td>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}

function MoveItem({
  item,
  theme,
  themes,
  onMove,
}: {
  item: ThemeItem;
  theme: CuratedTheme;
  themes: CuratedTheme[];
  onMove: (to: string | null) => void;
}) {
  const [to, setTo] = useState('');
  const name = item.title || 'item';
  return (
    <form
      className="filters compact"
      aria-label={`Move “${name}”`}
      onSubmit={(event) => {
        event.preventDefault();
        onMove(to || null);
      }}
    >
      <label htmlFor={`move-${item.id}`} className="visually-hidden">
        Move “{name}” to
      </label>
      <select id={`move-${item.id}`} value={to} onChange={(event) => setTo(event.target.value)}>
        <option value="">No theme (take it out)</option>
        {themes
          .filter((other) => other.id !== theme.id)
          .map((other) => (
            <option key={other.id} value={other.id}>
              {other.label}
            </option>
          ))}
      </select>
      <button type="submit">Move</button>
    </form>
  );
}
