import type { SubgraphContext } from '@fi/shared';
import type { LinksContext } from './links';
import type { MergesContext } from './merges';
import type { ThemesContext } from './themes';

/** A request's context: the shared one, and each feature's per-request loaders. */
export interface FeedbackContext extends SubgraphContext, LinksContext, ThemesContext, MergesContext {
  /**
   * The Idempotency-Key header as the gateway forwarded it; only addFeedbackItem reads (and checks) it,
   * so a malformed header fails that mutation with BAD_REQUEST and never a query.
   */
  idempotencyKeyHeader: string | string[] | undefined;
}
