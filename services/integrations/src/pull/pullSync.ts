import type { LeaseStore } from './data/leaseStore';
import type { SyncStateStore } from './data/syncStateStore';
import { PlatformError, RateLimitedError } from './platformErrors';
import type { PullConnection, PullConnector, PullSink } from './pullTypes';

export interface PullSyncOptions {
  /** How long a lease lasts unrenewed: a killed worker's connections wait this long for another worker. */
  leaseMs: number;
  /** Time between two syncs of a connection that reached the end of its stream. */
  intervalMs: number;
  /** Wait after a failed call (the platform down, a revoked token) before trying again. */
  failureBackoffMs: number;
}

export interface SyncReport {
  failed?(connection: PullConnection, message: string): Promise<void>;
  caughtUp?(connection: PullConnection): Promise<void>;
}

/** How one turn at a connection ended. */
export type SyncOutcome = 'caught-up' | 'not-due' | 'busy' | 'stopped' | 'lease-lost' | 'rate-limited' | 'failed';

/**
 * One connection's sync, page by page, under its lease: fetch a page after the saved cursor, store its
 * records (idempotently), renew the lease, then save the cursor: a kill at any point leaves the cursor at
 * or before what is stored. A 429 saves its Retry-After as the time before which the platform is not
 * called again, by this worker or any other.
 */
export class PullSync {
  constructor(
    private readonly leases: LeaseStore,
    private readonly states: SyncStateStore,
    private readonly connectors: Partial<Record<PullConnection['kind'], PullConnector>>,
    private readonly sink: PullSink,
    private readonly options: PullSyncOptions,
    /** Tells the connection's owner what happened: a failed call (shown as its last error), a caught-up sync. */
    private readonly report: SyncReport = {},
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async run(connection: PullConnection, stopping: () => boolean = () => false): Promise<SyncOutcome> {
    const { id, orgId } = connection;
    const due = (state: Awaited<ReturnType<SyncStateStore['get']>>, now: Date) =>
      !(state.notBefore && state.notBefore > now) &&
      !(state.caughtUpAt && state.caughtUpAt.getTime() + this.options.intervalMs > now.getTime());
    if (!due(await this.states.get(id, orgId), this.clock())) return 'not-due';
    const holder = await this.leases.take(id, this.clock(), this.options.leaseMs);
    if (!holder) return 'busy';
    try {
      // Read again under the lease: the previous holder may have moved the cursor since.
      const state = await this.states.get(id, orgId);
      if (!due(state, this.clock())) return 'not-due';
      let cursor = state.cursor;
      const connector = this.connectors[connection.kind];
      if (!connector) throw new PlatformError(connection.kind, 0, 'this service does not pull from it');
      for (;;) {
        if (stopping()) return 'stopped';
        const page = await connector.page(connection, cursor, this.clock());
        await this.sink.deliver(connection, page.batch);
        // A holder whose lease ran out (it stalled) must not move the cursor of the one that took over.
        if (!(await this.leases.renew(id, holder, this.clock(), this.options.leaseMs))) return 'lease-lost';
        const { items, contacts, accounts } = page.batch;
        await this.states.pageStored(id, orgId, page.cursor, items.length + contacts.length + accounts.length);
        cursor = page.cursor;
        if (page.endOfStream) {
          await this.states.caughtUp(id, orgId, this.clock());
          await this.report.caughtUp?.(connection);
          return 'caught-up';
        }
      }
    } catch (error) {
      if (error instanceof RateLimitedError) {
        await this.states.deferred(id, orgId, error.retryAt, null);
        return 'rate-limited';
      }
      if (error instanceof PlatformError) {
        await this.states.deferred(
          id,
          orgId,
          new Date(this.clock().getTime() + this.options.failureBackoffMs),
          error.message,
        );
        await this.report.failed?.(connection, error.message);
        return 'failed';
      }
      throw error;
    } finally {
      await this.leases.release(id, holder).catch(() => undefined);
    }
  }
}
