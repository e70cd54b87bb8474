import { TRIAGE_KEYS } from './useTriageKeys';

/** The inbox's keys, as help under the list; viewers see only the keys that read. */
export function TriageShortcuts({ canChange }: { canChange: boolean }) {
  return (
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
  );
}
