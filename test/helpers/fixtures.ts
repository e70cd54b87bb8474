import { createAccountRepository } from '@fi/accounts';
import { createContactRepository } from '@fi/contacts';
import type { Stack } from './stack';

export interface ContactFixture {
  name: string;
  email?: string;
  company?: string;
  tags?: string[];
  lastInteraction?: Date;
  createdAt?: Date;
}

export interface AccountFixture {
  name: string;
  domain?: string;
  score?: number;
  churnRisk?: number;
  tags?: string[];
  createdAt?: Date;
}

/** Contacts and accounts have no write in the public API (spec): tests store them the way the CLI import does. */
export async function insertContacts(stack: Stack, orgId: string, contacts: ContactFixture[]): Promise<void> {
  const repository = createContactRepository(await stack.connect('contacts'));
  const base = Date.now();
  await repository.insertMany(
    orgId,
    contacts.map((contact, i) => ({ tags: [], ...contact, createdAt: contact.createdAt ?? new Date(base + i) })),
  );
}

export async function insertAccounts(stack: Stack, orgId: string, accounts: AccountFixture[]): Promise<void> {
  const repository = createAccountRepository(await stack.connect('accounts'));
  const base = Date.now();
  await repository.insertMany(
    orgId,
    accounts.map((account, i) => ({ tags: [], ...account, createdAt: account.createdAt ?? new Date(base + i) })),
  );
}
