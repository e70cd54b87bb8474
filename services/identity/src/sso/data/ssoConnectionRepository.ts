import { Schema, type Connection, type Model } from 'mongoose';
import type { Role, SealedSecret } from '@fi/shared';

export interface OidcSettings {
  issuer: string;
  clientId: string;
  /** Sealed under SSO_SECRET_KEY with the organization's id; never returned by the API nor logged. */
  clientSecret: SealedSecret;
}

export interface SamlSettings {
  /** The identity provider's metadata XML as given (or as fetched from its URL when it was set). */
  metadataXml: string;
  metadataUrl: string | null;
  /** The provider's entity id, read from the metadata. */
  entityId: string;
}

/** An organization's one single sign-on connection: OIDC or SAML. */
export interface SsoConnection {
  orgId: string;
  protocol: 'oidc' | 'saml';
  oidc: OidcSettings | null;
  saml: SamlSettings | null;
  /** The role of a person who signs in for the first time (just-in-time membership). */
  defaultRole: Role;
  updatedAt: Date;
  updatedBy: string;
}

interface ConnectionDocument extends Omit<SsoConnection, 'orgId'> {
  _id: string;
}

const connectionSchema = new Schema<ConnectionDocument>(
  {
    _id: { type: String, required: true },
    protocol: { type: String, required: true },
    oidc: { type: Schema.Types.Mixed, default: null },
    saml: { type: Schema.Types.Mixed, default: null },
    defaultRole: { type: String, required: true },
    updatedAt: { type: Date, required: true },
    updatedBy: { type: String, required: true },
  },
  { collection: 'sso_connections', versionKey: false },
);

const toConnection = ({ _id, ...rest }: ConnectionDocument): SsoConnection => ({
  orgId: _id,
  ...rest,
  oidc: rest.oidc ?? null,
  saml: rest.saml ?? null,
});

/** One document per organization, under its id. */
export class SsoConnectionRepository {
  private readonly model: Model<ConnectionDocument>;

  constructor(connection: Connection) {
    this.model =
      connection.models.SsoConnection ?? connection.model<ConnectionDocument>('SsoConnection', connectionSchema);
  }

  async find(orgId: string): Promise<SsoConnection | null> {
    const doc = await this.model.findById(orgId).lean<ConnectionDocument>();
    return doc ? toConnection(doc) : null;
  }

  /** Replaces the organization's connection (a second `set` changes it; there is only ever one). */
  async save(connection: SsoConnection): Promise<void> {
    const { orgId, ...rest } = connection;
    await this.model.replaceOne({ _id: orgId }, rest, { upsert: true });
  }

  async remove(orgId: string): Promise<boolean> {
    return (await this.model.deleteOne({ _id: orgId })).deletedCount === 1;
  }
}
