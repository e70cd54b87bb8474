import { badRequest } from '@fi/shared';
import { DEFAULT_RULES, type AlertRules } from './data/alertModel';

export { DEFAULT_RULES, type AlertRules };

export const MAX_MUTED_THEMES = 200;

/** Whether the runtime knows the time zone (Intl throws a RangeError for an unknown one). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone.length > 0 && zone.length <= 64;
  } catch {
    return false;
  }
}

type RulesInput = Partial<{ [K in keyof AlertRules]: AlertRules[K] | null }>;

const range = (argument: keyof AlertRules, value: number, min: number, max: number, integer: boolean) => {
  if (!Number.isFinite(value) || value < min || value > max || (integer && !Number.isInteger(value)))
    throw badRequest(`${argument} must be ${integer ? 'an integer ' : ''}between ${min} and ${max} (got ${value})`, {
      argument: `input.${argument}`,
    });
  return value;
};

/** The rules after a change: what the input names replaces what is kept, null restores the default. */
export function changeRules(kept: AlertRules, input: RulesInput): AlertRules {
  const pick = <K extends keyof AlertRules>(key: K): AlertRules[K] =>
    input[key] === undefined ? kept[key] : input[key] === null ? DEFAULT_RULES[key] : (input[key] as AlertRules[K]);
  const muted = [
    ...new Set(
      pick('mutedThemeIds')
        .map((id) => id.trim())
        .filter(Boolean),
    ),
  ];
  if (muted.length > MAX_MUTED_THEMES)
    throw badRequest(`mutedThemeIds must have at most ${MAX_MUTED_THEMES} ids (got ${muted.length})`, {
      argument: 'input.mutedThemeIds',
    });
  const timeZone = pick('timeZone').trim();
  if (!isTimeZone(timeZone))
    throw badRequest(`timeZone must be an IANA time zone such as Europe/Paris (got ${JSON.stringify(timeZone)})`, {
      argument: 'input.timeZone',
    });
  return {
    minRatio: range('minRatio', pick('minRatio'), 1, 100, false),
    minItems: range('minItems', pick('minItems'), 1, 100_000, true),
    maxP: range('maxP', pick('maxP'), 1e-12, 0.5, false),
    minShareRise: range('minShareRise', pick('minShareRise'), 0, 1, false),
    newThemeMinItems: range('newThemeMinItems', pick('newThemeMinItems'), 1, 100_000, true),
    cooldownHours: range('cooldownHours', pick('cooldownHours'), 0, 720, false),
    mutedThemeIds: muted,
    timeZone,
  };
}
