import type { OpenImports } from '../data/changeOutbox';
import type { SearchIndexStore } from '../data/searchIndexStore';

/** When an organization's oldest import batch still being written began, or null. */
export type OpenImportSince = (orgId: string) => Promise<Date | null>;

/**
 * The organizations' open import batches, read again once the last read is `maxAgeMs` old. A pass may
 * use a read that old: a batch recorded after it has ids made after it, and a pass takes nothing younger
 * than the grace, so with `maxAgeMs` under the grace those ids are beyond the pass anyway.
 */
export function openImportsReader(store: SearchIndexStore, maxAgeMs: number): OpenImportSince {
  let last: { at: number; open: OpenImports } | null = null;
  return async (orgId) => {
    if (!last || Date.now() - last.at >= maxAgeMs) last = { at: Date.now(), open: await store.openImports() };
    return last.open.oldest.get(orgId) ?? last.open.unreadFrom;
  };
}
