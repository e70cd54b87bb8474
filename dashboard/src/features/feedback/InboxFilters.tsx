import type { FormEvent, RefObject } from 'react';
import { useQuery } from 'urql';
import { capitalized, SENTIMENTS, STATUSES, THEME_CHOICES } from './feedbackQueries';

/** The address's filter parameters, in the order the form shows them. */
export const FILTERS = ['status', 'sentiment', 'source', 'theme', 'q'] as const;
export type Filter = (typeof FILTERS)[number];
export type FilterValues = Record<Filter, string | null>;

/**
 * The inbox's filters: the lists apply as soon as one is picked; source and search apply with the Search
 * button (or Enter), so typing never reloads the list letter by letter.
 */
export function InboxFilters({
  values,
  searchField,
  onPick,
  onSearch,
  onClear,
}: {
  values: FilterValues;
  searchField: RefObject<HTMLInputElement | null>;
  onPick: (name: Filter, value: string | null) => void;
  onSearch: (typed: { q: string | null; source: string | null }) => void;
  onClear: () => void;
}) {
  const [themes] = useQuery({ query: THEME_CHOICES });
  const themeItems = themes.data?.feedbackThemes.items ?? [];
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const typed = (name: 'q' | 'source') => String(form.get(name) ?? '').trim() || null;
    onSearch({ q: typed('q'), source: typed('source') });
  };
  const choice = (
    name: 'status' | 'sentiment' | 'theme',
    label: string,
    any: string,
    options: ReadonlyArray<{ value: string; label: string }>,
  ) => (
    <div className="filter">
      <label htmlFor={`filter-${name}`}>{label}</label>
      <select
        id={`filter-${name}`}
        value={values[name] ?? ''}
        onChange={(event) => onPick(name, event.target.value || null)}
      >
        <option value="">{any}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
  // A theme from the address that the list no longer offers (merged, or beyond the first 100) stays chosen.
  // The taxonomy's themes first, then the service's suggestions, each largest first.
  const themeOptions = [...themeItems]
    .sort((a, b) => Number(b.curated) - Number(a.curated))
    .map((theme) => ({ value: theme.id, label: theme.curated ? theme.label : `${theme.label} (suggested)` }));
  if (values.theme && !themeItems.some((theme) => theme.id === values.theme))
    themeOptions.push({ value: values.theme, label: 'This theme' });
  const named = (list: readonly string[]) => list.map((value) => ({ value, label: capitalized(value) }));

  return (
    <form role="search" className="filters" onSubmit={submit} aria-label="Filter feedback">
      {choice('status', 'Status', 'Any status', named(STATUSES))}
      {choice('sentiment', 'Sentiment', 'Any sentiment', named(SENTIMENTS))}
      {choice('theme', 'Theme', 'Any theme', themeOptions)}
      <div className="filter">
        <label htmlFor="filter-source">Source</label>
        <input
          id="filter-source"
          name="source"
          defaultValue={values.source ?? ''}
          key={`source-${values.source}`}
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
          defaultValue={values.q ?? ''}
          key={`q-${values.q}`}
          maxLength={200}
        />
      </div>
      <div className="filter-buttons">
        <button type="submit">Search</button>
        {FILTERS.some((name) => values[name]) && (
          <button type="button" onClick={onClear}>
            Clear filters
          </button>
        )}
      </div>
    </form>
  );
}
