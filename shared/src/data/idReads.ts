import type { Types } from 'mongoose';

/** The most ids one read asks for; more in one turn are sent as further reads. */
const MAX_IDS_PER_READ = 100;

interface Waiter<D> {
  resolve(doc: D | null): void;
  reject(error: unknown): void;
}

/** The ids asked for in one turn (each once), with everyone waiting for each. */
type Batch<D> = Map<string, { id: Types.ObjectId; waiters: Array<Waiter<D>> }>;

/**
 * Reads of records by id asked for in one turn of the event loop, sent to the database together. Under
 * load a subgraph works on many requests at once, most reading one record by id (`contactItem(id)`, an
 * entity fetch): one `{ _id: { $in } }` for all of them costs the driver and the database one command's
 * work instead of one each (on the embedded FerretDB a command costs its CPU ~0.8 ms whatever it reads).
 * A read alone waits only for the end of the turn it was asked in, and is sent as the single lookup it
 * was before. A failed read fails every record asked for in it, as each read would have failed alone.
 */
export class IdReads<D extends { _id: Types.ObjectId }> {
  private batch: Batch<D> | null = null;

  constructor(private readonly read: (ids: Types.ObjectId[]) => Promise<D[]>) {}

  load(id: Types.ObjectId): Promise<D | null> {
    return new Promise<D | null>((resolve, reject) => {
      if (!this.batch) {
        const batch: Batch<D> = new Map();
        this.batch = batch;
        setImmediate(() => this.send(batch));
      }
      const key = id.toHexString();
      const entry = this.batch.get(key);
      if (entry) entry.waiters.push({ resolve, reject });
      else this.batch.set(key, { id, waiters: [{ resolve, reject }] });
      if (this.batch.size >= MAX_IDS_PER_READ) this.send(this.batch);
    });
  }

  private send(batch: Batch<D>): void {
    if (this.batch === batch) this.batch = null;
    if (batch.size === 0) return;
    const entries = [...batch.values()];
    batch.clear();
    this.read(entries.map((entry) => entry.id)).then(
      (docs) => {
        const byId = new Map(docs.map((doc) => [doc._id.toHexString(), doc]));
        for (const entry of entries)
          for (const waiter of entry.waiters) waiter.resolve(byId.get(entry.id.toHexString()) ?? null);
      },
      (error: unknown) => {
        for (const entry of entries) for (const waiter of entry.waiters) waiter.reject(error);
      },
    );
  }
}
