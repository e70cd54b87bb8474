import { randomBytes } from 'node:crypto';
import { Schema, type Connection, type Model } from 'mongoose';
import type { Role } from '@fi/shared';
import { buildIndexes } from '@fi/shared/database';

/** A person who signs in; one organization each (an email belongs to one organization). */
export interface Member {
  id: string;
  orgId: string;
  email: string;
  name: string;
  role: Role;
  createdAt: Date;
  /** Opted in to alert emails (see the feedback service's alerts); absent: not. */
  alertEmails?: boolean;
  /** Opted in to the weekly digest email; absent: not. */
  digestEmails?: boolean;
}

/** The mails a member may opt in to. */
export type MailList = 'alerts' | 'digest';

interface MemberDocument extends Omit<Member, 'id'> {
  _id: string;
  passwordHash: string;
}

const memberSchema = new Schema<MemberDocument>(
  {
    _id: { type: String, required: true },
    orgId: { type: String, required: true, index: true },
    email: { type: String, required: true, unique: true },
    name: { type: String, required: true },
    role: { type: String, required: true },
    passwordHash: { type: String, required: true },
    createdAt: { type: Date, required: true },
    alertEmails: Boolean,
    digestEmails: Boolean,
  },
  { collection: 'members', versionKey: false },
);

const toMember = ({ _id, passwordHash: _hash, ...rest }: MemberDocument): Member => ({ id: _id, ...rest });

const LIST_FIELDS: Record<MailList, 'alertEmails' | 'digestEmails'> = { alerts: 'alertEmails', digest: 'digestEmails' };

export class MemberRepository {
  private readonly model: Model<MemberDocument>;

  constructor(connection: Connection) {
    this.model = connection.models.Member ?? connection.model<MemberDocument>('Member', memberSchema);
  }

  ensureIndexes(): Promise<void> {
    return buildIndexes(this.model);
  }

  /**
   * Null when the email is taken. `restore` gives back the id and creation time a member had before (a
   * person deactivated by provisioning and made active again keeps the id the provider knows).
   */
  async create(
    input: Omit<Member, 'id' | 'createdAt' | 'alertEmails' | 'digestEmails'> & { passwordHash: string },
    restore?: { id: string; createdAt: Date },
  ): Promise<Member | null> {
    const doc: MemberDocument = {
      _id: restore?.id ?? `mem_${randomBytes(8).toString('hex')}`,
      ...input,
      createdAt: restore?.createdAt ?? new Date(),
    };
    try {
      await this.model.create(doc);
    } catch (error) {
      if ((error as { code?: number }).code === 11000) return null;
      throw error;
    }
    return toMember(doc);
  }

  /** With the password hash, for sign-in only. */
  async findCredentials(email: string): Promise<{ member: Member; passwordHash: string } | null> {
    const doc = await this.model.findOne({ email }).lean<MemberDocument>();
    return doc ? { member: toMember(doc), passwordHash: doc.passwordHash } : null;
  }

  async findById(id: string): Promise<Member | null> {
    const doc = await this.model.findById(id).lean<MemberDocument>();
    return doc ? toMember(doc) : null;
  }

  async list(orgId: string): Promise<Member[]> {
    const docs = await this.model.find({ orgId }).sort({ createdAt: 1 }).lean<MemberDocument[]>();
    return docs.map(toMember);
  }

  /** One page of the organization's members, oldest first, and how many it has. */
  async page(orgId: string, skip: number, take: number): Promise<{ total: number; items: Member[] }> {
    const [total, docs] = await Promise.all([
      this.model.countDocuments({ orgId }),
      take === 0
        ? Promise.resolve([])
        : this.model.find({ orgId }).sort({ createdAt: 1, _id: 1 }).skip(skip).limit(take).lean<MemberDocument[]>(),
    ]);
    return { total, items: docs.map(toMember) };
  }

  async listWithRole(orgId: string, role: Role): Promise<Member[]> {
    const docs = await this.model.find({ orgId, role }).sort({ createdAt: 1, _id: 1 }).lean<MemberDocument[]>();
    return docs.map(toMember);
  }

  /** Null when no member of the organization has this id; `taken` when another account has the email. */
  async setProfile(
    orgId: string,
    id: string,
    profile: { email: string; name: string },
  ): Promise<Member | 'taken' | null> {
    try {
      const doc = await this.model
        .findOneAndUpdate({ _id: id, orgId }, { $set: profile }, { new: true })
        .lean<MemberDocument>();
      return doc ? toMember(doc) : null;
    } catch (error) {
      if ((error as { code?: number }).code === 11000) return 'taken';
      throw error;
    }
  }

  /** Sets the member's own mail opt-ins (those given); null when no member of the organization has this id. */
  async setMailOptIns(
    orgId: string,
    id: string,
    optIns: Partial<Pick<Member, 'alertEmails' | 'digestEmails'>>,
  ): Promise<Member | null> {
    const doc = await this.model
      .findOneAndUpdate({ _id: id, orgId }, { $set: optIns }, { new: true })
      .lean<MemberDocument>();
    return doc ? toMember(doc) : null;
  }

  /** The organization's members who opted in to a list: their address and name only. */
  async optedIn(orgId: string, list: MailList): Promise<Array<{ email: string; name: string }>> {
    const docs = await this.model
      .find({ orgId, [LIST_FIELDS[list]]: true }, { _id: 0, email: 1, name: 1 })
      .sort({ createdAt: 1 })
      .limit(1_000)
      .lean<Array<{ email: string; name: string }>>();
    return docs.map(({ email, name }) => ({ email, name }));
  }

  async countWithRole(orgId: string, role: Role): Promise<number> {
    return this.model.countDocuments({ orgId, role });
  }

  async setRole(orgId: string, id: string, role: Role): Promise<Member | null> {
    const doc = await this.model
      .findOneAndUpdate({ _id: id, orgId }, { $set: { role } }, { new: true })
      .lean<MemberDocument>();
    return doc ? toMember(doc) : null;
  }

  async setPassword(id: string, passwordHash: string): Promise<void> {
    await this.model.updateOne({ _id: id }, { $set: { passwordHash } });
  }

  async remove(orgId: string, id: string): Promise<boolean> {
    return (await this.model.deleteOne({ _id: id, orgId })).deletedCount === 1;
  }
}
