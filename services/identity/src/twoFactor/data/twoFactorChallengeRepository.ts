import { Schema, type Connection, type Model } from 'mongoose';
import { buildIndexes } from '@fi/shared/database';

/**
 * A half-finished sign-in: the password (or single sign-on) was right, the second step is still due. It
 * is no session: it opens nothing but that step, for a few minutes, once. Stored under its token's SHA-256.
 */
export interface TwoFactorChallenge {
  id: string;
  memberId: string;
  orgId: string;
  /** `code`: the member gives a code; `enroll`: the organization requires two-factor and they have none yet. */
  kind: 'code' | 'enroll';
  expiresAt: Date;
}

interface ChallengeDocument extends Omit<TwoFactorChallenge, 'id'> {
  _id: string;
}

const challengeSchema = new Schema<ChallengeDocument>(
  {
    _id: { type: String, required: true },
    memberId: { type: String, required: true },
    orgId: { type: String, required: true },
    kind: { type: String, required: true },
    expiresAt: { type: Date, required: true, index: true },
  },
  { collection: 'two_factor_challenges', versionKey: false },
);

const toChallenge = ({ _id, ...rest }: ChallengeDocument): TwoFactorChallenge => ({ id: _id, ...rest });

export class TwoFactorChallengeRepository {
  private readonly model: Model<ChallengeDocument>;

  constructor(connection: Connection) {
    this.model =
      connection.models.TwoFactorChallenge ??
      connection.model<ChallengeDocument>('TwoFactorChallenge', challengeSchema);
  }

  ensureIndexes(): Promise<void> {
    return buildIndexes(this.model);
  }

  async create(challenge: TwoFactorChallenge): Promise<void> {
    const { id, ...rest } = challenge;
    await this.model.create({ _id: id, ...rest });
  }

  async find(id: string): Promise<TwoFactorChallenge | null> {
    const doc = await this.model.findById(id).lean<ChallengeDocument>();
    return doc ? toChallenge(doc) : null;
  }

  async purgeExpired(now: Date): Promise<void> {
    await this.model.deleteMany({ expiresAt: { $lte: now } });
  }
}
