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
}

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
  },
  { collection: 'members', versionKey: false },
);

const toMember = ({ _id, passwordHash: _hash, ...rest }: MemberDocument): Member => ({ id: _id, ...rest });

export class MemberRepository {
  private readonly model: Model<MemberDocument>;

  constructor(connection: Connection) {
    this.model = connection.models.Member ?? connection.model<MemberDocument>('Member', memberSchema);
  }

  ensureIndexes(): Promise<void> {
    return buildIndexes(this.model);
  }

  /** Null when the email is taken. */
  async create(input: Omit<Member, 'id' | 'createdAt'> & { passwordHash: string }): Promise<Member | null> {
    const doc: MemberDocument = { _id: `mem_${randomBytes(8).toString('hex')}`, ...input, createdAt: new Date() };
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
