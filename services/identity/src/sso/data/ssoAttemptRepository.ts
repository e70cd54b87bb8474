import { Schema, type Connection, type Model } from 'mongoose';
import { buildIndexes } from '@fi/shared/database';

/** A sign-in sent to an identity provider and not yet back: what its answer is checked against. */
export interface SsoAttempt {
  /** The SHA-256 of the `state` (OIDC) or of the request id (SAML): the value itself travels, never stored. */
  id: string;
  orgId: string;
  protocol: 'oidc' | 'saml';
  /** The email the person typed (sent to the provider as a hint). */
  email: string;
  /** OIDC: the PKCE verifier and the nonce the ID token must carry; empty for SAML. */
  codeVerifier: string;
  nonce: string;
  /** SAML: the id of our AuthnRequest, which the answer's InResponseTo must name; empty for OIDC. */
  requestId: string;
  /** SHA-256 of the browser's binding cookie: the answer must come back to the browser that started. */
  bindingHash: string;
  expiresAt: Date;
}

interface AttemptDocument extends Omit<SsoAttempt, 'id'> {
  _id: string;
}

/**
 * What the SAML assertion consumer found, kept for the browser it redirects to the completion page (which
 * can show the session or the refusal only to the browser that started: the binding cookie is not sent
 * with the identity provider's cross-site POST).
 */
export interface SamlOutcome {
  /** The SHA-256 of the completion page's ticket. */
  id: string;
  /** The attempt the answer belonged to; null when it matched none. */
  attemptId: string | null;
  orgId: string | null;
  email: string | null;
  name: string | null;
  refusal: { reason: string; message: string } | null;
  expiresAt: Date;
}

interface OutcomeDocument extends Omit<SamlOutcome, 'id'> {
  _id: string;
}

interface UseDocument {
  _id: string;
  expiresAt: Date;
}

const attemptSchema = new Schema<AttemptDocument>(
  {
    _id: { type: String, required: true },
    orgId: { type: String, required: true },
    protocol: { type: String, required: true },
    email: { type: String, required: true },
    codeVerifier: { type: String, default: '' },
    nonce: { type: String, default: '' },
    requestId: { type: String, default: '' },
    bindingHash: { type: String, required: true },
    expiresAt: { type: Date, required: true, index: true },
  },
  { collection: 'sso_attempts', versionKey: false },
);

const useSchema = new Schema<UseDocument>(
  {
    _id: { type: String, required: true },
    expiresAt: { type: Date, required: true, index: true },
  },
  { collection: 'sso_used', versionKey: false },
);

const outcomeSchema = new Schema<OutcomeDocument>(
  {
    _id: { type: String, required: true },
    attemptId: { type: String, default: null },
    orgId: { type: String, default: null },
    email: { type: String, default: null },
    name: { type: String, default: null },
    refusal: { type: Schema.Types.Mixed, default: null },
    expiresAt: { type: Date, required: true, index: true },
  },
  { collection: 'sso_saml_outcomes', versionKey: false },
);

const toAttempt = ({ _id, ...rest }: AttemptDocument): SsoAttempt => ({ id: _id, ...rest });

export class SsoAttemptRepository {
  private readonly attempts: Model<AttemptDocument>;
  private readonly uses: Model<UseDocument>;
  private readonly outcomes: Model<OutcomeDocument>;

  constructor(connection: Connection) {
    this.attempts = connection.models.SsoAttempt ?? connection.model<AttemptDocument>('SsoAttempt', attemptSchema);
    this.uses = connection.models.SsoUse ?? connection.model<UseDocument>('SsoUse', useSchema);
    this.outcomes =
      connection.models.SsoSamlOutcome ?? connection.model<OutcomeDocument>('SsoSamlOutcome', outcomeSchema);
  }

  async ensureIndexes(): Promise<void> {
    await buildIndexes(this.attempts);
    await buildIndexes(this.uses);
    await buildIndexes(this.outcomes);
  }

  async saveOutcome(outcome: SamlOutcome): Promise<void> {
    const { id, ...rest } = outcome;
    await this.outcomes.create({ _id: id, ...rest });
  }

  async findOutcome(id: string): Promise<SamlOutcome | null> {
    const doc = await this.outcomes.findById(id).lean<OutcomeDocument>();
    if (!doc) return null;
    const { _id, ...rest } = doc;
    return { id: _id, ...rest, refusal: rest.refusal ?? null };
  }

  async create(attempt: SsoAttempt): Promise<void> {
    const { id, ...rest } = attempt;
    await this.attempts.create({ _id: id, ...rest });
  }

  /** The attempt, whether or not it has ended (the caller tells an expired one from an unknown one). */
  async find(id: string): Promise<SsoAttempt | null> {
    const doc = await this.attempts.findById(id).lean<AttemptDocument>();
    return doc ? toAttempt(doc) : null;
  }

  /**
   * True for the first use of `key` (an attempt's state, a SAML assertion's id), false for every later
   * one: a unique insert, which exactly one of two simultaneous uses wins on MongoDB and FerretDB alike.
   * Kept until `expiresAt`, after which the thing used is refused as expired anyway.
   */
  async firstUse(key: string, expiresAt: Date): Promise<boolean> {
    try {
      await this.uses.create({ _id: key, expiresAt });
      return true;
    } catch (error) {
      if ((error as { code?: number }).code === 11000) return false;
      throw error;
    }
  }

  async purgeExpired(now: Date): Promise<void> {
    await this.attempts.deleteMany({ expiresAt: { $lte: now } });
    await this.uses.deleteMany({ expiresAt: { $lte: now } });
    await this.outcomes.deleteMany({ expiresAt: { $lte: now } });
  }
}
