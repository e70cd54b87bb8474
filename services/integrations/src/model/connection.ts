import type { SealedSecret } from '@fi/shared';

/** The platforms a connection can be made to: push ones send us events, pull ones are read by the worker. */
export const KINDS = ['webhook', 'intercom', 'slack', 'zendesk', 'email', 'hubspot'] as const;
export type Kind = (typeof KINDS)[number];

export const STATUSES = ['active', 'paused', 'failing'] as const;
export type ConnectionStatus = (typeof STATUSES)[number];

/**
 * What a connection holds that must never be shown or logged: the signing secret of a push connection
 * (ours for `webhook`, the platform's otherwise), the platform's token (Slack bot token, Zendesk or HubSpot
 * API token). Stored sealed (see SecretBox), bound to the connection's id.
 */
export interface Credentials {
  secret?: string;
  token?: string;
}

/** A connection as the service reads it; its credentials stay sealed until the moment they are used. */
export interface Connection {
  id: string;
  orgId: string;
  kind: Kind;
  name: string;
  status: ConnectionStatus;
  /** Platform settings that are not secret (e.g. a Zendesk subdomain, a backfill window). */
  settings: Record<string, unknown>;
  credentials: SealedSecret | null;
  /** Where each pull stream of the connection continues (the pull worker's, e.g. `tickets`). */
  cursors: Record<string, string>;
  itemsReceived: number;
  lastEventAt: Date | null;
  lastError: string | null;
  lastErrorAt: Date | null;
  createdAt: Date;
}

/** A connection as the public API and the admin API show it: never a secret, a token or a sealed value. */
export interface PublicConnection {
  id: string;
  kind: Kind;
  name: string;
  status: ConnectionStatus;
  itemsReceived: number;
  lastEventAt: Date | null;
  lastError: string | null;
  createdAt: Date;
}

export const publicConnection = (connection: Connection): PublicConnection => ({
  id: connection.id,
  kind: connection.kind,
  name: connection.name,
  status: connection.status,
  itemsReceived: connection.itemsReceived,
  lastEventAt: connection.lastEventAt,
  lastError: connection.lastError,
  createdAt: connection.createdAt,
});
