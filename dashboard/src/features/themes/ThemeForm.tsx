import { useState } from 'react';
import { useMutation } from 'urql';
import { ErrorLine } from '../../lib/ErrorLine';
import { errorInWords } from '../../lib/errorInWords';
import { CREATE_THEME, keywordsOf, UPDATE_THEME, type CuratedTheme } from './themeQueries';

/**
 * Adds a curated theme, or changes one (`editing`): what a product manager writes (a label, a sentence,
 * keywords) and where it goes in the taxonomy. The service checks the rules (nesting, cycles) and names
 * the field it refuses.
 */
export function ThemeForm({
  themes,
  editing,
  onDone,
}: {
  themes: CuratedTheme[];
  editing?: CuratedTheme;
  onDone: () => void;
}) {
  const [label, setLabel] = useState(editing?.label ?? '');
  const [description, setDescription] = useState(editing?.description ?? '');
  const [keywords, setKeywords] = useState(editing?.keywords.join(', ') ?? '');
  const [parentId, setParentId] = useState(editing?.parent?.id ?? '');
  const [error, setError] = useState<string | null>(null);
  const [{ fetching: creating }, create] = useMutation(CREATE_THEME);
  const [{ fetching: updating }, update] = useMutation(UPDATE_THEME);
  const prefix = editing ? `edit-${editing.id}` : 'new-theme';
  const submit = async () => {
    const input = { label, description, keywords: keywordsOf(keywords), parentId: parentId || null };
    const result = editing ? await update({ id: editing.id, input }) : await create({ input });
    if (result.error) {
      setError(errorInWords(result.error));
      return;
    }
    setError(null);
    if (!editing) {
      setLabel('');
      setDescription('');
      setKeywords('');
      setParentId('');
    }
    onDone();
  };
  return (
    <form
      className="theme-form"
      aria-label={editing ? `Edit ${editing.label}` : 'Add a theme'}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <label htmlFor={`${prefix}-label`}>Label</label>
      <input id={`${prefix}-label`} value={label} required maxLength={100} onChange={(e) => setLabel(e.target.value)} />
      <label htmlFor={`${prefix}-description`}>Description</label>
      <input
        id={`${prefix}-description`}
        value={description}
        maxLength={500}
        onChange={(e) => setDescription(e.target.value)}
      />
      <label htmlFor={`${prefix}-keywords`}>Keywords (comma-separated)</label>
      <input id={`${prefix}-keywords`} value={keywords} onChange={(e) => setKeywords(e.target.value)} />
      <label htmlFor={`${prefix}-parent`}>Under</label>
      <select id={`${prefix}-parent`} value={parentId} onChange={(e) => setParentId(e.target.value)}>
        <option value="">Top level</option>
        {themes
          .filter((theme) => theme.id !== editing?.id)
          .map((theme) => (
            <option key={theme.id} value={theme.id}>
              {theme.label}
            </option>
          ))}
      </select>
      <button type="submit" disabled={creating || updating}>
        {editing ? 'Save' : 'Add theme'}
      </button>
      <ErrorLine error={error} />
    </form>
  );
}
