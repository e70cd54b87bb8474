/** Each organization's oldest import batch still open, and where those left unread begin (see changes/). */
export interface OpenImports {
  oldest: Map<string, Date>;
  unreadFrom: Date | null;
}

/** When an organization's oldest import batch still being written began, or null. */
export type OpenImportSince = (orgId: string) => Promise<Date | null>;

/**
 * The organizations' open import batches, read again once the last read is `maxAgeMs` old. A pass may
 * use a read that old: a batch recorded after it has ids made after it, and a pass takes nothing younger
 * than the grace, so with `maxAgeMs` under the grace those ids are beyond the pass anyway.
 */
export function openImportsReader(sources: { openImports(): Promise<OpenImports> }, maxAgeMs: number): OpenImportSince {
  let last: { at: number; open: OpenImports } | null = null;
  return async (orgId) => {
    if (!last || Date.now() - last.at >= maxAgeMs) last = { at: Date.now(), open: await sources.openImports() };
    return last.open.oldest.get(orgId) ?? last.open.unreadFrom;
  };
}
