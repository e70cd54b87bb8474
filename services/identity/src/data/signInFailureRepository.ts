import { Schema, type Connection, type Model } from 'mongoose';
import { buildIndexes } from '@fi/shared/database';

interface FailureDocument {
  _id: string;
  count: number;
  /** When the counting window of this subject ends; the document is dropped then. */
  expiresAt: Date;
}

const failureSchema = new Schema<FailureDocument>(
  {
    _id: { type: String, required: true },
    count: { type: Number, required: true },
    expiresAt: { type: Date, required: true, index: true },
  },
  { collection: 'sign_in_failures', versionKey: false },
);

/** Failed sign-ins per subject (an account from one address, or an address) in a fixed window. */
export class SignInFailureRepository {
  private readonly model: Model<FailureDocument>;

  constructor(connection: Connection) {
    this.model = connection.models.SignInFailure ?? connection.model<FailureDocument>('SignInFailure', failureSchema);
  }

  ensureIndexes(): Promise<void> {
    return buildIndexes(this.model);
  }

  /** Failures counted in the current window, and when it ends; none when the window is over. */
  async current(subject: string, now: Date): Promise<{ count: number; expiresAt: Date } | null> {
    const doc = await this.model.findById(subject).lean<FailureDocument>();
    return doc && doc.expiresAt > now ? { count: doc.count, expiresAt: doc.expiresAt } : null;
  }

  async increment(subject: string, now: Date, windowMs: number): Promise<void> {
    // An expired window (not yet swept by the TTL index) starts over.
    await this.model.deleteOne({ _id: subject, expiresAt: { $lte: now } });
    await this.model.updateOne(
      { _id: subject },
      { $inc: { count: 1 }, $setOnInsert: { expiresAt: new Date(now.getTime() + windowMs) } },
      { upsert: true },
    );
  }

  async clear(subject: string): Promise<void> {
    await this.model.deleteOne({ _id: subject });
  }

  /** Drops what ended before `now` (swept on a timer: FerretDB has no TTL indexes, and MongoDB's run only once a minute anyway). */
  async purgeExpired(now: Date): Promise<void> {
    await this.model.deleteMany({ expiresAt: { $lte: now } });
  }
}
