import type { PullConnection, PulledAccount, PulledContact } from './pullTypes';

/** The contacts and accounts services' admin operations, called as the connection (their rules apply). */
export interface DirectoryCalls {
  call<T>(
    service: 'contacts' | 'accounts',
    connection: { id: string; orgId: string },
    query: string,
    variables?: Record<string, unknown>,
  ): Promise<T>;
}

const CONTACT_FIELDS = 'id name email phone company title location tags';
const ACCOUNT_FIELDS = 'id name domain description website score churnRisk tags';
const FIND_CONTACTS = `query($s: String!) { contacts(search: $s, take: 100) { items { ${CONTACT_FIELDS} } } }`;
const FIND_ACCOUNTS = `query($s: String!) { accounts(search: $s, take: 100) { items { ${ACCOUNT_FIELDS} } } }`;
const CREATE_CONTACT = 'mutation($input: ContactInput!) { createContact(input: $input) { id } }';
const UPDATE_CONTACT = 'mutation($id: String!, $input: ContactInput!) { updateContact(id: $id, input: $input) { id } }';
const CREATE_ACCOUNT = 'mutation($input: AccountInput!) { createAccount(input: $input) { id } }';
const UPDATE_ACCOUNT = 'mutation($id: String!, $input: AccountInput!) { updateAccount(id: $id, input: $input) { id } }';

type StoredRecord = { id: string } & Record<string, unknown>;

/** What the platform says of a record, over what the organization keeps (fields the platform leaves empty stay). */
function merged(existing: StoredRecord, incoming: Record<string, string | null>): Record<string, unknown> {
  const { id: _id, ...kept } = existing;
  const input: Record<string, unknown> = Object.fromEntries(Object.entries(kept).filter(([, value]) => value !== null));
  for (const [field, value] of Object.entries(incoming)) if (value !== null) input[field] = value;
  return input;
}

const changed = (existing: StoredRecord, input: Record<string, unknown>) =>
  Object.entries(input).some(([field, value]) => JSON.stringify(existing[field] ?? null) !== JSON.stringify(value));

export interface WriteOutcome {
  written: number;
  /** Records the services' rules refused, each with the reason (the sync goes on without them). */
  refused: string[];
  /** Contacts without an email: nothing to match them by on the next sync, so they are not written. */
  skipped: number;
}

/**
 * Writes pulled contacts and accounts through the contacts and accounts services' own rules: a contact is
 * matched by email, an account by domain (else by exact name); a match is updated with what the platform
 * says (fields it leaves empty keep the organization's values; tags, scores and churn risk are never
 * touched), anything else is created. Matching by what the records say, not by a platform id, keeps the
 * services' records free of any platform's ids; a re-sync updates the same record.
 */
export class DirectoryWriter {
  constructor(
    private readonly directory: DirectoryCalls,
    /** An error that is the services' rules refusing the record (not the service being unavailable). */
    private readonly isRefusal: (error: unknown) => boolean,
  ) {}

  async write(connection: PullConnection, contacts: PulledContact[], accounts: PulledAccount[]): Promise<WriteOutcome> {
    const outcome: WriteOutcome = { written: 0, refused: [], skipped: 0 };
    const attempt = async (what: string, write: () => Promise<boolean>) => {
      try {
        if (await write()) outcome.written += 1;
      } catch (error) {
        if (!this.isRefusal(error)) throw error;
        outcome.refused.push(`${what}: ${(error as Error).message}`);
      }
    };
    for (const account of accounts)
      await attempt(`company ${account.externalId}`, () => this.account(connection, account));
    for (const contact of contacts) {
      if (!contact.email) {
        outcome.skipped += 1;
        continue;
      }
      await attempt(`contact ${contact.externalId}`, () => this.contact(connection, contact));
    }
    return outcome;
  }

  private async contact(connection: PullConnection, contact: PulledContact): Promise<boolean> {
    const email = contact.email as string;
    const found = await this.directory.call<{ contacts: { items: StoredRecord[] } }>(
      'contacts',
      connection,
      FIND_CONTACTS,
      {
        s: email,
      },
    );
    const existing = found.contacts.items.find((item) => String(item.email ?? '').toLowerCase() === email);
    const { externalId: _externalId, ...fields } = contact;
    if (!existing) {
      await this.directory.call('contacts', connection, CREATE_CONTACT, { input: withoutNulls(fields) });
      return true;
    }
    const input = merged(existing, fields);
    if (!changed(existing, input)) return false;
    await this.directory.call('contacts', connection, UPDATE_CONTACT, { id: existing.id, input });
    return true;
  }

  private async account(connection: PullConnection, account: PulledAccount): Promise<boolean> {
    const key = account.domain ?? account.name;
    const found = await this.directory.call<{ accounts: { items: StoredRecord[] } }>(
      'accounts',
      connection,
      FIND_ACCOUNTS,
      {
        s: key,
      },
    );
    const existing = found.accounts.items.find((item) =>
      account.domain
        ? String(item.domain ?? '').toLowerCase() === account.domain
        : !item.domain && String(item.name).toLowerCase() === account.name.toLowerCase(),
    );
    const { externalId: _externalId, ...fields } = account;
    if (!existing) {
      await this.directory.call('accounts', connection, CREATE_ACCOUNT, { input: withoutNulls(fields) });
      return true;
    }
    const input = merged(existing, fields);
    if (!changed(existing, input)) return false;
    await this.directory.call('accounts', connection, UPDATE_ACCOUNT, { id: existing.id, input });
    return true;
  }
}

function withoutNulls(fields: Record<string, string | null>): Record<string, string> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== null)) as Record<string, string>;
}
