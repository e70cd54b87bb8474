import { badRequest, newSigningSecret, notFound, type Logger, type SealedSecret, type SecretBox } from '@fi/shared';
import { newObjectIdHex } from '@fi/shared/database';
import type { ConnectionStore } from '../data/connectionStore';
import type { InboxStore } from '../data/inboxStore';
import { KINDS, publicConnection, type Credentials, type Kind, type PublicConnection } from '../model/connection';
import type { AuditPort, ChangeActor, IntegrationAuditAction } from './auditTrail';
import { newConnectionToken, tokenHash } from './connectionTokens';

export interface NewConnectionInput {
  kind: string;
  name?: string | null;
  /** The platform's secret (Intercom's client secret, Slack's signing secret, Zendesk's webhook secret). */
  secret?: string | null;
  /** The platform's token (Slack bot token, Zendesk or HubSpot API token). */
  token?: string | null;
  /** Zendesk's subdomain (<subdomain>.zendesk.com), for its pull. */
  subdomain?: string | null;
  /** Whole days a pull's first sync goes back (zendesk and hubspot; 30 when absent). */
  backfillDays?: number | null;
}

/** The longest window a first sync may go back: a year. */
export const MAX_BACKFILL_DAYS = 365;

/** The backfill window as asked: whole days, 0 to a year, for the connections that pull. */
function backfillDaysOf(kind: Kind, value: number | null | undefined): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (kind !== 'zendesk' && kind !== 'hubspot')
    throw badRequest('backfillDays is for zendesk and hubspot connections only', { argument: 'backfillDays' });
  if (!Number.isInteger(value) || value < 0 || value > MAX_BACKFILL_DAYS)
    throw badRequest(`backfillDays must be a whole number of days from 0 to ${MAX_BACKFILL_DAYS} (got ${value})`, {
      argument: 'backfillDays',
      min: 0,
      max: MAX_BACKFILL_DAYS,
    });
  return value;
}

/** What adding a connection shows once: where the platform sends, and the secret when we made it. */
export interface CreatedConnection {
  integration: PublicConnection;
  url: string | null;
  address: string | null;
  secret: string | null;
}

const LABELS: Record<Kind, string> = {
  webhook: 'Webhook',
  intercom: 'Intercom',
  slack: 'Slack',
  zendesk: 'Zendesk',
  email: 'Email',
  hubspot: 'HubSpot',
};

const MAX = { name: 100, secret: 500, token: 4_000 } as const;
const SUBDOMAIN = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;

export const CONNECTION_NOT_FOUND = 'Integration not found';

function text(argument: string, value: string | null | undefined, max: number): string | undefined {
  if (value === undefined || value === null) return undefined;
  const trimmed = value.trim();
  if (trimmed === '') return undefined;
  if (trimmed.length > max) throw badRequest(`${argument} must be at most ${max} characters`, { argument });
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(trimmed)) throw badRequest(`${argument} must be one line of text`, { argument });
  return trimmed;
}

function parseKind(kind: string): Kind {
  if (!(KINDS as readonly string[]).includes(kind))
    throw badRequest(`kind must be one of ${KINDS.join(', ')} (got ${JSON.stringify(kind.slice(0, 50))})`, {
      argument: 'kind',
    });
  return kind as Kind;
}

const required = (argument: string, what: string) => badRequest(`${argument} is required: ${what}`, { argument });

/** Which credentials each kind takes, checked; `secret: generated` when we make a Standard Webhooks secret. */
function credentialsFor(kind: Kind, input: NewConnectionInput): { credentials: Credentials; generated: boolean } {
  const secret = text('secret', input.secret, MAX.secret);
  const token = text('token', input.token, MAX.token);
  switch (kind) {
    case 'webhook':
      if (secret)
        throw badRequest('secret is generated for a webhook connection; do not pass one', { argument: 'secret' });
      return { credentials: { secret: newSigningSecret() }, generated: true };
    case 'intercom':
      if (!secret) throw required('secret', "the Intercom app's client secret, which signs its webhooks");
      return { credentials: { secret }, generated: false };
    case 'slack':
      if (!secret) throw required('secret', "the Slack app's signing secret");
      return { credentials: { secret, ...(token ? { token } : {}) }, generated: false };
    case 'zendesk':
      if (!secret && !token)
        throw required(
          'secret',
          "the Zendesk webhook's signing secret (or, to pull tickets, --token with --subdomain)",
        );
      return { credentials: { ...(secret ? { secret } : {}), ...(token ? { token } : {}) }, generated: false };
    case 'hubspot':
      if (!token) throw required('token', "a HubSpot private app's access token");
      return { credentials: { token }, generated: false };
    case 'email':
      return { credentials: {}, generated: false };
  }
}

/**
 * The connections of an organization: adding one (a URL or an address with an unguessable token, and its
 * credentials sealed), pausing, resuming, rotating its secret, removing it with its credentials and events.
 * Every entry point (public API, admin API, CLI) goes through these rules.
 */
export class Connections {
  constructor(
    private readonly deps: {
      store: ConnectionStore;
      inbox: InboxStore;
      /** What else a removed connection leaves that goes with it (a pull's cursor), kept by features. */
      forget: (connectionId: string) => Promise<void>;
      box: SecretBox;
      hookPublicUrl: string;
      inboundMailDomain: string;
      audit: AuditPort;
      logger: Logger;
    },
  ) {}

  /**
   * Every change goes into the organization's audit log. The change is made first: a log that cannot be
   * written (the identity service down) is reported as an error, and the change stands (adding shows a
   * secret only once: failing the answer would lose it).
   */
  private async audited(orgId: string, actor: ChangeActor, action: IntegrationAuditAction, target: string) {
    try {
      await this.deps.audit.record(orgId, actor, action, target);
    } catch (error) {
      this.deps.logger.error({ err: error, orgId, action, integrationId: target }, 'audit entry not recorded');
    }
  }

  async add(orgId: string, actor: ChangeActor, input: NewConnectionInput): Promise<CreatedConnection> {
    const kind = parseKind(input.kind);
    const name = text('name', input.name, MAX.name) ?? LABELS[kind];
    const subdomain = text('subdomain', input.subdomain, 63);
    if (subdomain !== undefined && !SUBDOMAIN.test(subdomain))
      throw badRequest('subdomain must be letters, digits and hyphens (the part before .zendesk.com)', {
        argument: 'subdomain',
      });
    if (subdomain !== undefined && kind !== 'zendesk')
      throw badRequest('subdomain is for zendesk connections only', { argument: 'subdomain' });
    const backfillDays = backfillDaysOf(kind, input.backfillDays);
    const { credentials, generated } = credentialsFor(kind, input);
    if (kind === 'zendesk' && credentials.token && !subdomain)
      throw required('subdomain', 'the Zendesk subdomain the token belongs to');
    const id = newObjectIdHex();
    const token = newConnectionToken();
    const stored = await this.deps.store.insert({
      id,
      orgId,
      kind,
      name,
      status: 'active',
      settings: {
        ...(subdomain ? { subdomain: subdomain.toLowerCase() } : {}),
        ...(backfillDays !== undefined ? { backfillDays } : {}),
      },
      credentials: Object.keys(credentials).length > 0 ? this.deps.box.seal(JSON.stringify(credentials), id) : null,
      tokenHash: tokenHash(token),
      createdAt: new Date(),
    });
    await this.audited(orgId, actor, 'integration.added', id);
    return {
      integration: publicConnection(stored),
      url: kind === 'email' ? null : `${this.deps.hookPublicUrl.replace(/\/$/, '')}/hooks/${token}`,
      address: kind === 'email' ? `feedback+${token}@${this.deps.inboundMailDomain}` : null,
      secret: generated ? (credentials.secret ?? null) : null,
    };
  }

  async list(orgId: string): Promise<PublicConnection[]> {
    return (await this.deps.store.list(orgId)).map(publicConnection);
  }

  async pause(orgId: string, actor: ChangeActor, id: string): Promise<PublicConnection> {
    const paused = this.found(await this.deps.store.setStatus(orgId, id, 'paused'));
    await this.audited(orgId, actor, 'integration.paused', id);
    return paused;
  }

  async resume(orgId: string, actor: ChangeActor, id: string): Promise<PublicConnection> {
    const resumed = this.found(await this.deps.store.setStatus(orgId, id, 'active'));
    await this.audited(orgId, actor, 'integration.resumed', id);
    return resumed;
  }

  /** The connection's latest events with their outcome, newest first. */
  async recentEvents(orgId: string, id: string, take: number) {
    if (!(await this.deps.store.get(orgId, id))) throw notFound(CONNECTION_NOT_FOUND);
    return this.deps.inbox.recent(orgId, id, take);
  }

  /**
   * A new secret: generated for a webhook connection (returned once), the platform's new one otherwise. The
   * old one stops verifying at once: a platform that still signs with it is answered 401 and redelivers.
   */
  async rotateSecret(
    orgId: string,
    actor: ChangeActor,
    id: string,
    secret?: string | null,
  ): Promise<{ integration: PublicConnection; secret: string | null }> {
    const connection = await this.deps.store.get(orgId, id);
    if (!connection) throw notFound(CONNECTION_NOT_FOUND);
    const current = openCredentials(this.deps.box, connection);
    const given = text('secret', secret, MAX.secret);
    let next: string;
    if (connection.kind === 'webhook') {
      if (given)
        throw badRequest('secret is generated for a webhook connection; do not pass one', { argument: 'secret' });
      next = newSigningSecret();
    } else if (connection.kind === 'email' || connection.kind === 'hubspot') {
      throw badRequest(`a ${connection.kind} connection has no signing secret`, { argument: 'id' });
    } else {
      if (!given) throw required('secret', "the platform's new secret");
      next = given;
    }
    const sealed = this.deps.box.seal(JSON.stringify({ ...current, secret: next }), id);
    const updated = this.found(await this.deps.store.setCredentials(orgId, id, sealed));
    await this.audited(orgId, actor, 'integration.secret_rotated', id);
    return { integration: updated, secret: connection.kind === 'webhook' ? next : null };
  }

  /** Removes the connection, its sealed credentials and its events; false when it was not the organization's. */
  async remove(orgId: string, actor: ChangeActor, id: string): Promise<boolean> {
    const removed = await this.deps.store.remove(orgId, id);
    if (!removed) return false;
    await Promise.all([this.deps.inbox.removeConnection(id), this.deps.forget(id)]);
    await this.audited(orgId, actor, 'integration.removed', id);
    return true;
  }

  private found(connection: Parameters<typeof publicConnection>[0] | null): PublicConnection {
    if (!connection) throw notFound(CONNECTION_NOT_FOUND);
    return publicConnection(connection);
  }
}

/** A connection's credentials, opened at the moment they are used (verifying a signature, calling a platform). */
export function openCredentials(
  box: SecretBox,
  connection: { id: string; credentials: SealedSecret | null },
): Credentials {
  return connection.credentials ? (JSON.parse(box.open(connection.credentials, connection.id)) as Credentials) : {};
}
