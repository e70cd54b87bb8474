import { Schema, type Connection, type Model } from 'mongoose';
import { buildIndexes } from '@fi/shared/database';

/** A signed-in member's session, stored under the hash of its token (the token lives only in the cookie). */
export interface SessionRecord {
  id: string;
  memberId: string;
  orgId: string;
  createdAt: Date;
  lastSeenAt: Date;
  /** The absolute end, however much the session is used. */
  expiresAt: Date;
  revokedAt: Date | null;
}

interface SessionDocument extends Omit<SessionRecord, 'id'> {
  _id: string;
}

const sessionSchema = new Schema<SessionDocument>(
  {
    _id: { type: String, required: true },
    memberId: { type: String, required: true, index: true },
    orgId: { type: String, required: true },
    createdAt: { type: Date, required: true },
    lastSeenAt: { type: Date, required: true },
    expiresAt: { type: Date, required: true, index: true },
    revokedAt: { type: Date, default: null },
  },
  { collection: 'sessions', versionKey: false },
);

const toSession = ({ _id, ...rest }: SessionDocument): SessionRecord => ({
  id: _id,
  ...rest,
  revokedAt: rest.revokedAt ?? null,
});

export class SessionRepository {
  private readonly model: Model<SessionDocument>;

  constructor(connection: Connection) {
    this.model = connection.models.Session ?? connection.model<SessionDocument>('Session', sessionSchema);
  }

  ensureIndexes(): Promise<void> {
    return buildIndexes(this.model);
  }

  async create(session: SessionRecord): Promise<void> {
    const { id, ...rest } = session;
    await this.model.create({ _id: id, ...rest });
  }

  async findById(id: string): Promise<SessionRecord | null> {
    const doc = await this.model.findById(id).lean<SessionDocument>();
    return doc ? toSession(doc) : null;
  }

  async touch(id: string, at: Date): Promise<void> {
    await this.model.updateOne({ _id: id }, { $set: { lastSeenAt: at } });
  }

  async revoke(id: string): Promise<void> {
    await this.model.updateOne({ _id: id, revokedAt: null }, { $set: { revokedAt: new Date() } });
  }

  /** Ends every session of a member (removed, or a new password). */
  async revokeAllOf(memberId: string): Promise<void> {
    await this.model.updateMany({ memberId, revokedAt: null }, { $set: { revokedAt: new Date() } });
  }

  /** Drops what ended before `now` (swept on a timer: FerretDB has no TTL indexes, and MongoDB's run only once a minute anyway). */
  async purgeExpired(now: Date): Promise<void> {
    await this.model.deleteMany({ expiresAt: { $lte: now } });
  }
}
