/**
 * Which endpoints a dispatcher instance looks at next, so that every endpoint with queued work gets its
 * turn whatever the others do: the one looked at longest ago goes first, and an endpoint whose next
 * delivery is waiting (a retry later, or another instance's lease) is not read again before then. This
 * is what keeps one organization's dead endpoint with a large backlog from starving everyone else.
 * Kept in memory per instance: after a restart every endpoint simply starts even.
 */
export class EndpointRotation {
  private readonly lookedAt = new Map<string, number>();
  private readonly waitUntil = new Map<string, number>();

  /** Up to `limit` endpoints of `withWork`, least recently looked at first, skipping waiting and `busy` ones. */
  next(withWork: readonly string[], now: number, busy: (endpointId: string) => boolean, limit: number): string[] {
    this.forgetAllBut(withWork);
    return withWork
      .filter((id) => !busy(id) && (this.waitUntil.get(id) ?? 0) <= now)
      .sort((a, b) => (this.lookedAt.get(a) ?? 0) - (this.lookedAt.get(b) ?? 0))
      .slice(0, limit);
  }

  looked(endpointId: string, now: number): void {
    this.lookedAt.set(endpointId, now);
    this.waitUntil.delete(endpointId);
  }

  /** The endpoint's next delivery cannot go before `until`. */
  wait(endpointId: string, until: number): void {
    this.waitUntil.set(endpointId, until);
  }

  /** Endpoints whose queue emptied are forgotten, so the maps stay as small as the queue. */
  private forgetAllBut(withWork: readonly string[]): void {
    const current = new Set(withWork);
    for (const map of [this.lookedAt, this.waitUntil]) {
      for (const id of map.keys()) if (!current.has(id)) map.delete(id);
    }
  }
}
