import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { ErrorLine } from '../../lib/ErrorLine';
import { errorInWords } from '../../lib/errorInWords';
import { canManageKeys } from '../auth/roles';
import { useSignedIn } from '../auth/SessionProvider';
import { StatusMessage } from '../layout/StatusMessage';
import { ALERT_RULES, SET_ALERT_RULES, type AlertRules } from './alertQueries';

/** The organization's alert rules: every member reads them, owners and admins change them (Slack sends data out). */
export function AlertRulesSection() {
  const canChange = canManageKeys(useSignedIn().member.role);
  const [{ data, error }, reexecute] = useQuery({ query: ALERT_RULES });
  if (error)
    return (
      <StatusMessage error retry={() => reexecute({ requestPolicy: 'network-only' })}>
        {errorInWords(error)}
      </StatusMessage>
    );
  // Kept on screen while a save reads them again (the form keeps what was typed and says it was saved).
  if (!data) return <StatusMessage>Loading the alert rules…</StatusMessage>;
  return <RulesForm rules={data.feedbackAlertRules} canChange={canChange} />;
}

function RulesForm({ rules, canChange }: { rules: AlertRules; canChange: boolean }) {
  const [form, setForm] = useState({
    minRatio: String(rules.minRatio),
    minItems: String(rules.minItems),
    maxP: String(rules.maxP),
    newThemeMinItems: String(rules.newThemeMinItems),
    cooldownHours: String(rules.cooldownHours),
    timeZone: rules.timeZone,
    slackUrl: '',
  });
  const [unmuted, setUnmuted] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [{ fetching }, save] = useMutation(SET_ALERT_RULES);
  const field = (name: keyof typeof form) => ({
    name,
    value: form[name],
    disabled: !canChange,
    onChange: (e: { target: { value: string } }) => setForm({ ...form, [name]: e.target.value }),
  });
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setSaved(null);
    const result = await save({
      input: {
        minRatio: Number(form.minRatio),
        minItems: Number(form.minItems),
        maxP: Number(form.maxP),
        newThemeMinItems: Number(form.newThemeMinItems),
        cooldownHours: Number(form.cooldownHours),
        timeZone: form.timeZone.trim(),
        mutedThemeIds: rules.mutedThemeIds.filter((id) => !unmuted.includes(id)),
        ...(form.slackUrl.trim() ? { slackUrl: form.slackUrl.trim() } : {}),
      },
    });
    if (result.error) setError(errorInWords(result.error));
    else setSaved('The alert rules are saved; the next check (within a minute) follows them.');
  };
  const removeSlack = async () => {
    setError(null);
    const result = await save({ input: { slackUrl: '' } });
    if (result.error) setError(errorInWords(result.error));
    else setSaved('Slack is disconnected: alerts are no longer posted there.');
  };
  return (
    <form onSubmit={submit} aria-labelledby="alert-rules-title">
      <h2 id="alert-rules-title">Alert rules</h2>
      <p className="hint">
        An alert opens when a theme's items today are both far above its own last 28 days (the ratio and the minimum
        items) and unlikely by chance (the test's probability).
        {canChange ? '' : ' Owners and admins change the rules.'}
      </p>
      <label>
        At least this many times the usual day
        <input type="number" min={1} max={100} step="0.1" {...field('minRatio')} />
      </label>
      <label>
        At least this many items
        <input type="number" min={1} step={1} {...field('minItems')} />
      </label>
      <label>
        Probability by chance below
        <input type="number" min={0} max={0.5} step="any" {...field('maxP')} />
      </label>
      <label>
        A new theme alerts at this many items in a day
        <input type="number" min={1} step={1} {...field('newThemeMinItems')} />
      </label>
      <label>
        Hours before the same theme alerts again
        <input type="number" min={0} max={720} step="any" {...field('cooldownHours')} />
      </label>
      <label>
        Time zone of the organization's days
        <input type="text" {...field('timeZone')} />
      </label>
      <fieldset>
        <legend>Muted themes</legend>
        {rules.mutedThemes.length === 0 && <p className="hint">No theme is muted.</p>}
        {rules.mutedThemes.map((theme) => (
          <label key={theme.id} className="check">
            <input
              type="checkbox"
              disabled={!canChange}
              checked={!unmuted.includes(theme.id)}
              onChange={(e) =>
                setUnmuted(e.target.checked ? unmuted.filter((id) => id !== theme.id) : [...unmuted, theme.id])
              }
            />
            {theme.label}
          </label>
        ))}
      </fieldset>
      <label>
        Slack incoming webhook URL
        <input
          type="url"
          placeholder={rules.slackUrlHint ?? 'https://hooks.slack.com/services/…'}
          aria-describedby="slack-hint"
          {...field('slackUrl')}
        />
      </label>
      <p id="slack-hint" className="hint">
        {rules.slackUrlHint
          ? `Alerts are posted to ${rules.slackUrlHint} (the full address is kept secret). A new URL replaces it.`
          : 'Alerts are posted to this Slack channel when set.'}
      </p>
      <ErrorLine error={error} />
      <div role="status" className="told">
        {saved}
      </div>
      {canChange && (
        <div className="actions">
          {rules.slackUrlHint && (
            <button type="button" disabled={fetching} onClick={() => void removeSlack()}>
              Disconnect Slack
            </button>
          )}
          <button type="submit" className="primary" disabled={fetching}>
            Save rules
          </button>
        </div>
      )}
    </form>
  );
}
