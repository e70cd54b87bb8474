import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { ConfirmDialog } from '../../lib/ConfirmDialog';
import { ErrorLine } from '../../lib/ErrorLine';
import { errorInWords } from '../../lib/errorInWords';
import { canChangeDirectory } from '../auth/roles';
import { useSignedIn } from '../auth/SessionProvider';
import { ThemeForm } from './ThemeForm';
import { ThemeItems } from './ThemeItems';
import { ACCEPT_THEME, REMOVE_THEME, TAXONOMY, treeOf, type CuratedTheme } from './themeQueries';

/**
 * The organization's taxonomy: curated themes as a tree (add, edit, nest, remove), a theme's items to
 * correct, and the service's suggestions to accept. Changes reach every item at the feedback service's next
 * pass (within about a minute); a correction holds at once.
 */
export function ThemesPage() {
  const canChange = canChangeDirectory(useSignedIn().member.role);
  const [{ data, error }, reexecute] = useQuery({ query: TAXONOMY });
  const reload = () => reexecute({ requestPolicy: 'network-only' });
  const [selected, setSelected] = useState<string | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const [removing, setRemoving] = useState<CuratedTheme | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [{ fetching: removeBusy }, remove] = useMutation(REMOVE_THEME);
  const [{ fetching: accepting }, accept] = useMutation(ACCEPT_THEME);
  if (error) return <ErrorLine error={errorInWords(error)} />;
  const curated = data?.curatedFeedbackThemes ?? [];
  const suggestions = (data?.feedbackThemes.items ?? []).filter((theme) => !theme.curated);
  const chosen = curated.find((theme) => theme.id === selected);
  return (
    <div className="themes-page">
      <h1>Themes</h1>
      <p className="hint">
        The taxonomy your team keeps: every item gets the themes it matches, and each correction teaches the assignment.
        Changes reach all items within about a minute.
      </p>
      <ErrorLine error={failure} />
      <section aria-label="Taxonomy">
        <h2>Taxonomy</h2>
        {curated.length === 0 && <p className="hint">No curated theme yet: add one, or accept a suggestion.</p>}
        <ul className="theme-tree">
          {treeOf(curated).map(({ theme, depth }) => (
            <li key={theme.id} style={{ marginLeft: `${depth * 1.5}rem` }}>
              <button type="button" aria-pressed={selected === theme.id} onClick={() => setSelected(theme.id)}>
                {theme.label}
              </button>{' '}
              <span className="hint">
                {theme.count} items{theme.keywords.length > 0 ? ` · ${theme.keywords.join(', ')}` : ''}
              </span>
              {canChange && (
                <>
                  {' '}
                  <button type="button" aria-label={`Edit ${theme.label}`} onClick={() => setEditing(theme.id)}>
                    Edit
                  </button>{' '}
                  <button type="button" aria-label={`Remove ${theme.label}`} onClick={() => setRemoving(theme)}>
                    Remove
                  </button>
                </>
              )}
              {editing === theme.id && (
                <ThemeForm
                  themes={curated}
                  editing={theme}
                  onDone={() => {
                    setEditing(null);
                    reload();
                  }}
                />
              )}
            </li>
          ))}
        </ul>
        {canChange && <ThemeForm themes={curated} onDone={reload} />}
      </section>
      {chosen && <ThemeItems key={chosen.id} theme={chosen} themes={curated} canChange={canChange} />}
      <section aria-label="Suggestions">
        <h2>Suggestions</h2>
        <p className="hint">Themes the service found in your feedback that the taxonomy does not have yet.</p>
        <ul>
          {suggestions.map((theme) => (
            <li key={theme.id}>
              {theme.label} <span className="hint">({theme.count} items)</span>{' '}
              {canChange && (
                <button
                  type="button"
                  aria-label={`Accept ${theme.label}`}
                  disabled={accepting}
                  onClick={async () => {
                    const result = await accept({ id: theme.id });
                    setFailure(result.error ? errorInWords(result.error) : null);
                    reload();
                  }}
                >
                  Accept
                </button>
              )}
              {theme.summary && <p className="theme-summary">{theme.summary}</p>}
            </li>
          ))}
        </ul>
      </section>
      {removing && (
        <ConfirmDialog
          title="Remove theme"
          confirmLabel="Remove"
          busy={removeBusy}
          run={() => remove({ id: removing.id })}
          onDone={() => {
            if (selected === removing.id) setSelected(null);
            reload();
          }}
          onClose={() => setRemoving(null)}
        >
          <p>“{removing.label}” leaves the taxonomy; its items stay, and the themes under it move up a level.</p>
        </ConfirmDialog>
      )}
    </div>
  );
}
