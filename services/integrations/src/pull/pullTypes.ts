/** A pull connection as the worker needs it: which platform account, and how to sign in to it. */
export interface PullConnection {
  id: string;
  orgId: string;
  kind: 'zendesk' | 'hubspot';
  /** Zendesk: the account's subdomain. */
  subdomain?: string;
  /** The platform's API token (decrypted only for the call). */
  token: string;
  /** Days of history the first sync backfills. */
  backfillDays: number;
}

/** A new feedback item from a platform record, keyed by the platform's id. */
export interface PulledItem {
  source: string;
  title: string;
  content: string;
  author: string | null;
  email: string | null;
  externalId: string;
  publishedDate: string;
  metadata: Record<string, unknown>;
}

/** A person from a CRM, written through the contacts service's rules (matched by email). */
export interface PulledContact {
  externalId: string;
  name: string;
  email: string | null;
  phone: string | null;
  company: string | null;
  title: string | null;
  location: string | null;
}

/** A company from a CRM, written through the accounts service's rules (matched by domain). */
export interface PulledAccount {
  externalId: string;
  name: string;
  domain: string | null;
  description: string | null;
  website: string | null;
}

/** What one page of a platform's records becomes. */
export interface PulledBatch {
  items: PulledItem[];
  contacts: PulledContact[];
  accounts: PulledAccount[];
}

export interface PulledPage {
  batch: PulledBatch;
  /** Where the next page starts: saved once the batch is stored. */
  cursor: string;
  /** No more records for now: the next sync starts from `cursor` after the interval. */
  endOfStream: boolean;
}

/** One platform's pull: the page after `cursor` (null: the first sync, from the backfill window). */
export interface PullConnector {
  page(connection: PullConnection, cursor: string | null, now: Date): Promise<PulledPage>;
}

/**
 * Where pulled records go: resolves once they are stored durably (items in the inbox, contacts and
 * accounts through their services), idempotent by external id, so a page fetched again after a crash
 * makes nothing twice.
 */
export interface PullSink {
  deliver(connection: PullConnection, batch: PulledBatch): Promise<void>;
}

export const emptyBatch = (): PulledBatch => ({ items: [], contacts: [], accounts: [] });
