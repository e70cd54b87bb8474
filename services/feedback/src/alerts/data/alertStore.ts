import { randomBytes } from 'node:crypto';
import { Schema, type Types, type Connection, type Model } from 'mongoose';
import { DEFAULT_MAX_TIME_MS } from '@fi/shared';
import { buildIndexes, newObjectIdHex } from '@fi/shared/database';
import { ANY_STATUS, feedbackModel, type FeedbackDocument } from '../../core/data';
import {
  DEFAULT_RULES,
  type Alert,
  type AlertKind,
  type AlertRules,
  type AlertStatus,
  type Signal,
} from './alertModel';

/** A Slack incoming-webhook URL, sealed at rest (it is a credential: whoever has it posts to the channel). */
export interface SealedUrl {
  keyId: string;
  iv: string;
  tag: string;
  data: string;
}

interface AlertDocument {
  _id: string;
  orgId: string;
  kind: AlertKind;
  subject: string;
  themeId?: string;
  label: string;
  window: string;
  openedAt: Date;
  updatedAt: Date;
  acknowledgedAt?: Date;
  closedAt?: Date;
  count: number;
  total: number;
  baseline: number;
  p: number;
  exampleIds: string[];
  /** What was sent: `<channel>_<event>` (e.g. `slack_triggered`), given up ones included. */
  sent: string[];
  /** Failed attempts per `<channel>_<event>`. */
  attempts: Record<string, number>;
}

const alertSchema = new Schema<AlertDocument>(
  {
    _id: { type: String, required: true },
    orgId: { type: String, required: true },
    kind: { type: String, required: true },
    subject: { type: String, required: true },
    themeId: String,
    label: { type: String, required: true },
    window: { type: String, required: true },
    openedAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
    acknowledgedAt: Date,
    closedAt: Date,
    count: { type: Number, required: true },
    total: { type: Number, required: true },
    baseline: { type: Number, required: true },
    p: { type: Number, required: true },
    exampleIds: { type: [String], default: [] },
    sent: { type: [String], default: [] },
    attempts: { type: Schema.Types.Mixed, default: {} },
  },
  { collection: 'feedback_alerts', versionKey: false, minimize: false },
);
// One alert per spike, whichever instance or pass finds it: the subject's window is taken by an insert.
alertSchema.index({ orgId: 1, kind: 1, subject: 1, window: 1 }, { unique: true });
alertSchema.index({ orgId: 1, openedAt: -1 });
alertSchema.index({ orgId: 1, closedAt: 1 });

interface RulesDocument extends Partial<AlertRules> {
  _id: string;
  slackUrl?: SealedUrl;
  updatedAt: Date;
}

const rulesSchema = new Schema<RulesDocument>(
  {
    _id: { type: String, required: true },
    minRatio: Number,
    minItems: Number,
    maxP: Number,
    minShareRise: Number,
    newThemeMinItems: Number,
    cooldownHours: Number,
    mutedThemeIds: { type: [String], default: undefined },
    timeZone: String,
    slackUrl: { type: Schema.Types.Mixed },
    updatedAt: { type: Date, required: true },
  },
  { collection: 'feedback_alert_rules', versionKey: false },
);

interface ClaimDocument {
  _id: string;
  holder: string;
  expiresAt: Date;
}

const claimSchema = new Schema<ClaimDocument>(
  {
    _id: { type: String, required: true },
    holder: { type: String, required: true },
    expiresAt: { type: Date, required: true },
  },
  { collection: 'feedback_alert_claims', versionKey: false },
);

/** A week's digest of an organization, taken by inserting it: it is sent once, whichever instance sends it. */
interface DigestDocument {
  _id: string;
  orgId: string;
  week: string;
  sentAt: Date;
  recipients: number;
}

const digestSchema = new Schema<DigestDocument>(
  {
    _id: { type: String, required: true },
    orgId: { type: String, required: true },
    week: { type: String, required: true },
    sentAt: { type: Date, required: true },
    recipients: { type: Number, required: true },
  },
  { collection: 'feedback_digests', versionKey: false },
);

const toAlert = (doc: AlertDocument): Alert => ({
  id: doc._id,
  orgId: doc.orgId,
  kind: doc.kind,
  subject: doc.subject,
  themeId: doc.themeId ?? null,
  label: doc.label,
  window: doc.window,
  status: doc.closedAt ? 'closed' : doc.acknowledgedAt ? 'acknowledged' : 'open',
  openedAt: doc.openedAt,
  updatedAt: doc.updatedAt,
  acknowledgedAt: doc.acknowledgedAt ?? null,
  closedAt: doc.closedAt ?? null,
  count: doc.count,
  total: doc.total,
  baseline: doc.baseline,
  p: doc.p,
  exampleIds: doc.exampleIds,
});

const STATUS_FILTERS: Record<AlertStatus, object> = {
  open: { closedAt: null, acknowledgedAt: null },
  acknowledged: { closedAt: null, acknowledgedAt: { $ne: null } },
  closed: { closedAt: { $ne: null } },
};

/** An alert with what is left to send of it. */
export interface AlertToSend extends Alert {
  sent: string[];
  attempts: Record<string, number>;
}

/**
 * Alerts (`feedback_alerts`), the organizations' rules (`feedback_alert_rules`) and the detector's
 * per-organization claims (`feedback_alert_claims`).
 */
export class AlertStore {
  private readonly alerts: Model<AlertDocument>;
  private readonly rulesModel: Model<RulesDocument>;
  private readonly claims: Model<ClaimDocument>;
  private readonly items: Model<FeedbackDocument>;
  private readonly digests: Model<DigestDocument>;

  constructor(connection: Connection) {
    this.digests = connection.models.FeedbackDigest ?? connection.model<DigestDocument>('FeedbackDigest', digestSchema);
    this.alerts = connection.models.FeedbackAlert ?? connection.model<AlertDocument>('FeedbackAlert', alertSchema);
    this.rulesModel =
      connection.models.FeedbackAlertRules ?? connection.model<RulesDocument>('FeedbackAlertRules', rulesSchema);
    this.claims =
      connection.models.FeedbackAlertClaim ?? connection.model<ClaimDocument>('FeedbackAlertClaim', claimSchema);
    this.items = feedbackModel(connection);
  }

  async ensureIndexes(): Promise<void> {
    await Promise.all([
      buildIndexes(this.alerts),
      buildIndexes(this.rulesModel),
      buildIndexes(this.claims),
      buildIndexes(this.digests),
    ]);
  }

  /**
   * Takes the organization's detection for `ttlMs` by inserting its claim: exactly one caller can, on MongoDB
   * and on the embedded FerretDB v1 alike (which does not apply concurrent conditional updates atomically
   * but refuses a second insert of an `_id`). The holder's token, or null when another instance holds it.
   */
  async claim(orgId: string, now: Date, ttlMs: number): Promise<string | null> {
    // A claim its holder never gave back (it died) ends at its expiry.
    await this.claims.deleteOne({ _id: orgId, expiresAt: { $lte: now } });
    const holder = randomBytes(12).toString('hex');
    try {
      await this.claims.create({ _id: orgId, holder, expiresAt: new Date(now.getTime() + ttlMs) });
      return holder;
    } catch (error) {
      if ((error as { code?: number }).code === 11000) return null;
      throw error;
    }
  }

  async release(orgId: string, holder: string): Promise<void> {
    await this.claims.deleteOne({ _id: orgId, holder });
  }

  /** Whether the organization's digest of `week` was sent (or is being sent). */
  async digestSent(orgId: string, week: string): Promise<boolean> {
    return (await this.digests.exists({ _id: `${orgId}:${week}` })) !== null;
  }

  /** Takes the organization's digest of `week` (an insert: once); false when it was taken already. */
  async takeDigest(orgId: string, week: string, recipients: number, now: Date): Promise<boolean> {
    try {
      await this.digests.create({ _id: `${orgId}:${week}`, orgId, week, sentAt: now, recipients });
      return true;
    } catch (error) {
      if ((error as { code?: number }).code === 11000) return false;
      throw error;
    }
  }

  /** The organization's rules (the defaults for what it never set) and its sealed Slack URL. */
  async rules(orgId: string): Promise<{ rules: AlertRules; slackUrl: SealedUrl | null; updatedAt: Date | null }> {
    const doc = await this.rulesModel.findById(orgId).lean<RulesDocument>();
    const rules = { ...DEFAULT_RULES };
    for (const key of Object.keys(DEFAULT_RULES) as Array<keyof AlertRules>)
      if (doc?.[key] !== undefined && doc[key] !== null) (rules as Record<string, unknown>)[key] = doc[key];
    return { rules, slackUrl: doc?.slackUrl ?? null, updatedAt: doc?.updatedAt ?? null };
  }

  /** Replaces the rules; the Slack URL too when given (null removes it, undefined keeps it). */
  async saveRules(orgId: string, rules: AlertRules, slackUrl: SealedUrl | null | undefined, now: Date): Promise<void> {
    await this.rulesModel.updateOne(
      { _id: orgId },
      {
        $set: { ...rules, updatedAt: now, ...(slackUrl ? { slackUrl } : {}) },
        ...(slackUrl === null ? { $unset: { slackUrl: 1 } } : {}),
      },
      { upsert: true },
    );
  }

  /** The organization's alerts not closed. */
  async active(orgId: string): Promise<Alert[]> {
    const docs = await this.alerts.find({ orgId, closedAt: null }).limit(1_000).lean<AlertDocument[]>();
    return docs.map(toAlert);
  }

  /** When each subject's newest alert closed, for those closed since `since` (`kind:subject` keys). */
  async closedSince(orgId: string, since: Date): Promise<Map<string, Date>> {
    const docs = await this.alerts
      .find({ orgId, closedAt: { $gte: since } }, { kind: 1, subject: 1, closedAt: 1 })
      .limit(10_000)
      .lean<Array<Pick<AlertDocument, 'kind' | 'subject' | 'closedAt'>>>();
    const closed = new Map<string, Date>();
    for (const doc of docs) {
      const key = `${doc.kind}:${doc.subject}`;
      if (!closed.has(key) || closed.get(key)! < doc.closedAt!) closed.set(key, doc.closedAt!);
    }
    return closed;
  }

  /**
   * Opens an alert for the signal's subject and window; null when that window already has one (another
   * instance or an earlier pass opened it: a spike never alerts twice).
   */
  async open(orgId: string, signal: Signal, window: string, exampleIds: string[], now: Date): Promise<Alert | null> {
    const doc: AlertDocument = {
      _id: `alr_${newObjectIdHex()}`,
      orgId,
      kind: signal.kind,
      subject: signal.subject,
      ...(signal.themeId ? { themeId: signal.themeId } : {}),
      label: signal.label,
      window,
      openedAt: now,
      updatedAt: now,
      count: signal.count,
      total: signal.total,
      baseline: signal.baseline,
      p: signal.p,
      exampleIds,
      sent: [],
      attempts: {},
    };
    try {
      await this.alerts.create(doc);
      return toAlert(doc);
    } catch (error) {
      if ((error as { code?: number }).code === 11000) return null;
      throw error;
    }
  }

  /** The spike grew: its figures and examples as of now. */
  async grow(id: string, signal: Signal, exampleIds: string[], now: Date): Promise<void> {
    await this.alerts.updateOne(
      { _id: id },
      { $set: { count: signal.count, total: signal.total, p: signal.p, exampleIds, updatedAt: now } },
    );
  }

  async close(id: string, now: Date): Promise<void> {
    await this.alerts.updateOne({ _id: id, closedAt: null }, { $set: { closedAt: now, updatedAt: now } });
  }

  /** Marks the organization's alert seen; null when it has none with that id. */
  async acknowledge(orgId: string, id: string, now: Date): Promise<Alert | null> {
    await this.alerts.updateOne({ _id: id, orgId, acknowledgedAt: null }, { $set: { acknowledgedAt: now } });
    const doc = await this.alerts.findOne({ _id: id, orgId }).lean<AlertDocument>();
    return doc ? toAlert(doc) : null;
  }

  /** The organization's alerts of a status (all when none), newest first. */
  async list(orgId: string, status: AlertStatus | undefined, take: number): Promise<Alert[]> {
    if (take === 0) return [];
    const docs = await this.alerts
      .find({ orgId, ...(status ? STATUS_FILTERS[status] : {}) })
      .sort({ openedAt: -1, _id: -1 })
      .limit(take)
      .lean<AlertDocument[]>();
    return docs.map(toAlert);
  }

  /** Alerts opened since `since` with something left to send (`wanted` names what each should have sent). */
  async toSend(orgId: string, since: Date): Promise<AlertToSend[]> {
    const docs = await this.alerts
      .find({ orgId, openedAt: { $gte: since } })
      .sort({ openedAt: 1 })
      .limit(200)
      .lean<AlertDocument[]>();
    return docs.map((doc) => ({ ...toAlert(doc), sent: doc.sent, attempts: doc.attempts ?? {} }));
  }

  /** Records a channel's event as sent (or given up). */
  async markSent(id: string, what: string): Promise<void> {
    await this.alerts.updateOne({ _id: id }, { $addToSet: { sent: what } });
  }

  async markFailed(id: string, what: string, attempts: number): Promise<void> {
    await this.alerts.updateOne({ _id: id }, { $set: { [`attempts.${what}`]: attempts } });
  }

  /**
   * The newest items (ids) of a theme, or negative ones, published in [from, to): an alert's examples, read
   * through the (organization, themeIds, status, sentiment, createdAt) and (organization, status, sentiment,
   * publishedDate) indexes.
   */
  async examples(
    orgId: string,
    of: { themeId: string } | { sentiment: 'negative' },
    from: Date,
    to: Date,
    take: number,
  ): Promise<string[]> {
    const filter =
      'themeId' in of
        ? { orgId, themeIds: of.themeId, publishedDate: { $gte: from, $lt: to } }
        : { orgId, status: ANY_STATUS, sentiment: 'negative', publishedDate: { $gte: from, $lt: to } };
    const docs = await this.items
      .find(filter, { _id: 1 })
      .sort({ publishedDate: -1 })
      .limit(take)
      .maxTimeMS(DEFAULT_MAX_TIME_MS)
      .lean<Array<{ _id: Types.ObjectId }>>();
    return docs.map((doc) => doc._id.toHexString());
  }
}
