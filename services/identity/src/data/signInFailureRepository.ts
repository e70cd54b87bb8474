import { randomInt } from 'node:crypto';
import { Schema, type Connection, type Model } from 'mongoose';
import { buildIndexes } from '@fi/shared/database';

/**
 * One counted attempt: slot `n` of a subject in one window, `_id` `<subject>#<window end>#<n>`. The unique
 * `_id` is what makes a limit hold under simultaneous attempts: a slot is taken by inserting it, which
 * exactly one caller can do, on MongoDB and on the embedded FerretDB alike (FerretDB v1 does not apply
 * concurrent conditional updates of one document atomically, see docs/scale.md, but refuses a second
 * insert of an `_id`). So at most `limit` attempts are counted per window and none is lost.
 */
interface SlotDocument {
  _id: string;
  subject: string;
  /** The end of the window the slot counts in; the slot is dropped then. */
  expiresAt: Date;
}

const slotSchema = new Schema<SlotDocument>(
  {
    _id: { type: String, required: true },
    subject: { type: String, required: true },
    expiresAt: { type: Date, required: true, index: true },
  },
  { collection: 'sign_in_failures', versionKey: false },
);
slotSchema.index({ subject: 1, expiresAt: 1 });

/** A count taken: the slot to give back, or when the window of a used-up count ends. */
export type Taken = { slot: string; refusedUntil?: never } | { slot?: never; refusedUntil: Date };

/**
 * Counts per subject (an account from one address, an address; password-reset requests likewise) in
 * fixed windows aligned to the clock: at most `limit` per window.
 */
export class SignInFailureRepository {
  private readonly model: Model<SlotDocument>;

  constructor(connection: Connection) {
    this.model = connection.models.SignInSlot ?? connection.model<SlotDocument>('SignInSlot', slotSchema);
  }

  ensureIndexes(): Promise<void> {
    return buildIndexes(this.model);
  }

  /**
   * Takes one of the `limit` slots of `subject` in the current window, or answers when that window ends
   * when all are taken. The free slots are tried in a random order, so simultaneous callers rarely try
   * the same one; a slot another caller took first (E11000) sends this one to the next.
   */
  async take(subject: string, limit: number, now: Date, windowMs: number): Promise<Taken> {
    const windowEnd = new Date((Math.floor(now.getTime() / windowMs) + 1) * windowMs);
    const prefix = `${subject}#${windowEnd.getTime()}#`;
    const taken = new Set(
      (await this.model.find({ subject, expiresAt: windowEnd }, { _id: 1 }).lean<Array<{ _id: string }>>()).map(
        (doc) => doc._id,
      ),
    );
    const free = Array.from({ length: limit }, (_, n) => `${prefix}${n + 1}`).filter((id) => !taken.has(id));
    for (let left = free.length; left > 0; left -= 1) {
      const [slot] = free.splice(randomInt(left), 1);
      try {
        await this.model.create({ _id: slot, subject, expiresAt: windowEnd });
        return { slot };
      } catch (error) {
        if ((error as { code?: number }).code !== 11000) throw error;
      }
    }
    return { refusedUntil: windowEnd };
  }

  /**
   * Takes one slot of each subject, in order, or none: when one is used up, the slots taken are given
   * back and the answer is when its window ends.
   */
  async takeAll(
    subjects: ReadonlyArray<{ subject: string; limit: number }>,
    now: Date,
    windowMs: number,
  ): Promise<{ slots: string[]; refusedUntil?: never } | { slots?: never; refusedUntil: Date }> {
    const slots: string[] = [];
    for (const { subject, limit } of subjects) {
      const taken = await this.take(subject, limit, now, windowMs);
      if (taken.refusedUntil) {
        await this.release(slots);
        return { refusedUntil: taken.refusedUntil };
      }
      slots.push(taken.slot);
    }
    return { slots };
  }

  /** Gives slots back (a success is not a failure). */
  async release(slots: string[]): Promise<void> {
    if (slots.length > 0) await this.model.deleteMany({ _id: { $in: slots } });
  }

  /** Forgets every count of a subject. */
  async clear(subject: string): Promise<void> {
    await this.model.deleteMany({ subject });
  }

  /** Drops what ended before `now` (swept on a timer: FerretDB has no TTL indexes, and MongoDB's run only once a minute anyway). */
  async purgeExpired(now: Date): Promise<void> {
    await this.model.deleteMany({ expiresAt: { $lte: now } });
  }
}
