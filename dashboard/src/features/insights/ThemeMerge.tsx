import { useState } from 'react';
import { useMutation } from 'urql';
import { ConfirmDialog } from '../../lib/ConfirmDialog';
import { ErrorLine } from '../../lib/ErrorLine';
import { errorInWords } from '../../lib/errorInWords';
import { MERGE_THEMES, UNMERGE_THEMES, type ThemeFigures } from './insightsQueries';

/**
 * Merges a theme into another, for one area of the product that the computation shows as two (customers
 * name it in different words). The feedback service computes the themes again at its next pass and keeps
 * the merge in every later one, so the page says when the change will show, and offers to undo it.
 */
export function ThemeMerge({ themes }: { themes: ThemeFigures[] }) {
  const [chosenFrom, setFrom] = useState(themes[1].id);
  const [chosenInto, setInto] = useState(themes[0].id);
  // A theme chosen before the list was read again may be gone (merged, or out of the range).
  const listed = (id: string, otherwise: string) => (themes.some((theme) => theme.id === id) ? id : otherwise);
  const from = listed(chosenFrom, themes[1].id);
  const into = listed(chosenInto, themes[0].id);
  const [asking, setAsking] = useState(false);
  const [merged, setMerged] = useState<{ from: string; into: ThemeFigures } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [{ fetching: merging }, merge] = useMutation(MERGE_THEMES);
  const [{ fetching: unmerging }, unmerge] = useMutation(UNMERGE_THEMES);
  const labelOf = (id: string) => themes.find((theme) => theme.id === id)?.label ?? '';
  const undo = async (target: ThemeFigures) => {
    const result = await unmerge({ id: target.id });
    setFailure(result.error ? errorInWords(result.error) : null);
    if (!result.error) setMerged(null);
  };
  return (
    <details className="theme-merge">
      <summary>Merge themes</summary>
      <p className="hint">
        When one area of the product shows as two themes, merge them: later computations keep them together.
      </p>
      <form
        className="filters compact"
        aria-label="Merge a theme into another"
        onSubmit={(event) => {
          event.preventDefault();
          setAsking(true);
        }}
      >
        <ThemeChoice id="merge-from" label="Merge" themes={themes} value={from} onChange={setFrom} />
        <ThemeChoice id="merge-into" label="into" themes={themes} value={into} onChange={setInto} />
        <button type="submit" disabled={from === into}>
          Merge…
        </button>
      </form>
      {from === into && <p className="hint">Choose two different themes.</p>}
      {merged && (
        <p className="notice" role="status">
          “{merged.from}” is merged into “{merged.into.label}”; the themes show it within a minute.{' '}
          <button type="button" disabled={unmerging} onClick={() => void undo(merged.into)}>
            Undo
          </button>
        </p>
      )}
      <ErrorLine error={failure} />
      {asking && (
        <ConfirmDialog
          title="Merge themes"
          confirmLabel="Merge"
          busy={merging}
          run={() => merge({ id: into, themeIds: [from] })}
          onDone={() => {
            setFailure(null);
            setMerged({ from: labelOf(from), into: themes.find((theme) => theme.id === into)! });
          }}
          onClose={() => setAsking(false)}
        >
          <p>
            The feedback of “{labelOf(from)}” joins “{labelOf(into)}”, from the next computation of the themes on. Undo
            separates them again.
          </p>
        </ConfirmDialog>
      )}
    </details>
  );
}

function ThemeChoice({
  id,
  label,
  themes,
  value,
  onChange,
}: {
  id: string;
  label: string;
  themes: ThemeFigures[];
  value: string;
  onChange: (id: string) => void;
}) {
  return (
    <div className="filter">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value)}>
        {themes.map((theme) => (
          <option key={theme.id} value={theme.id}>
            {theme.label}
          </option>
        ))}
      </select>
    </div>
  );
}
