import type { AiStore } from './data/aiStore';
import type { TokenBudget } from './tokenBudget';

const monthOf = (now: number) => new Date(now).toISOString().slice(0, 7);

/**
 * Each organization's tokens of the calendar month (UTC) in the database, at most `limit`: a call
 * reserves its estimate, then the server's `usage` replaces it (see TokenBudget).
 */
export function monthlyTokens(store: AiStore, limit: number, now: () => number = Date.now): TokenBudget {
  return {
    reserve: (orgId, tokens) => store.reserveTokens(orgId, monthOf(now()), tokens, limit),
    settle: (orgId, reserved, used) => store.addTokens(orgId, monthOf(now()), used - reserved),
  };
}
