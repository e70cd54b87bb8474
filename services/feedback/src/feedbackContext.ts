import type DataLoader from 'dataloader';
import type { SubgraphContext } from '@fi/shared';
import type { ContactRef } from './contactStatsLoader';
import type { AuthorStats } from './data/feedbackRepository';
import type { FeedbackLinkLoaders } from './links/feedbackLinks';
import type { ThemeLoaders } from './themes/themeLoaders';
import type { DuplicateLoader } from './merges/duplicateLoader';

export interface FeedbackContext extends SubgraphContext {
  contactStats: DataLoader<ContactRef, AuthorStats, string>;
  /** Per-request loaders of what this service adds to contacts and accounts. */
  links: FeedbackLinkLoaders;
  /** Per-request loaders of themes. */
  themes: ThemeLoaders;
  /** Per request: the duplicates merged into each item. */
  duplicates: DuplicateLoader;
  /**
   * The Idempotency-Key header as the gateway forwarded it; only addFeedbackItem reads (and checks) it,
   * so a malformed header fails that mutation with BAD_REQUEST and never a query.
   */
  idempotencyKeyHeader: string | string[] | undefined;
}
