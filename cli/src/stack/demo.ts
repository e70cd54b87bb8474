import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { curateDemoTaxonomy } from '@fi/feedback';
import { KeyService, MemberService, migrateLegacyKeys, openRepositories, OPERATOR } from '@fi/identity';
import { seedOrganization } from '../commands/seed';
import { openLegacyKeyStore, type Databases } from '../databases';
import type { Output } from '../output';
import { DATA_DIR } from './stackFile';

export const DEMO_ORG = 'demo';
export const DEMO_OWNER_EMAIL = 'owner@demo.example';
const DEMO_KEY_FILE = path.join(DATA_DIR, 'demo-api-key');
const DEMO_OWNER_FILE = path.join(DATA_DIR, 'demo-owner-password');

export interface Demo {
  key: string | null;
  owner: { email: string; password: string } | null;
}

const readSecret = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').trim() : null);

/** The demo owner of the local stack (`npm start`), for scripts that sign in as a person would. */
export function readDemoOwner(): { email: string; password: string } | null {
  const password = readSecret(DEMO_OWNER_FILE);
  return password ? { email: DEMO_OWNER_EMAIL, password } : null;
}
const writeSecret = (file: string, value: string) => writeFileSync(file, `${value}\n`, { mode: 0o600 });

/**
 * On the first start with an empty database: a demo organization with realistic data, a key and an
 * owner who can sign in. The key and the owner's password are kept in .data/ (local only, git-ignored,
 * mode 600), so every later start can print them too. Keys of a database made before the identity
 * service are moved first, so an existing demo is not seeded twice.
 */
export async function ensureDemo(db: Databases, out: Output, env: NodeJS.ProcessEnv = process.env): Promise<Demo> {
  const repositories = await openRepositories(db.identity);
  const legacy = await openLegacyKeyStore(db, env);
  try {
    await migrateLegacyKeys(legacy.connection, repositories);
  } finally {
    await legacy.close();
  }
  const keys = new KeyService(repositories);
  let key: string | null;
  if ((await repositories.apiKeys.list(DEMO_ORG)).length > 0) {
    key = readSecret(DEMO_KEY_FILE);
  } else {
    out.info('Empty database: seeding the "demo" organization...');
    await seedOrganization(DEMO_ORG, { feedback: 2_000, contacts: 300, accounts: 60 }, db, out);
    // A curated taxonomy beside the computed suggestions, as a team would start one.
    await curateDemoTaxonomy(db.feedback, DEMO_ORG);
    await keys.organizationFor(OPERATOR, DEMO_ORG, 'pro');
    key = (await keys.create(OPERATOR, DEMO_ORG, { name: 'demo', readOnly: false, rateLimitPerMinute: null })).key;
    writeSecret(DEMO_KEY_FILE, key);
  }
  return { key, owner: await ensureDemoOwner(repositories) };
}

async function ensureDemoOwner(repositories: Awaited<ReturnType<typeof openRepositories>>): Promise<Demo['owner']> {
  if (await repositories.members.findCredentials(DEMO_OWNER_EMAIL)) {
    const password = readSecret(DEMO_OWNER_FILE);
    return password ? { email: DEMO_OWNER_EMAIL, password } : null;
  }
  const password = randomBytes(12).toString('base64url');
  await new MemberService(repositories).add(OPERATOR, DEMO_ORG, {
    email: DEMO_OWNER_EMAIL,
    name: 'Demo Owner',
    role: 'owner',
    password,
  });
  writeSecret(DEMO_OWNER_FILE, password);
  return { email: DEMO_OWNER_EMAIL, password };
}

export function curlExample(gatewayUrl: string, key: string): string {
  const body = JSON.stringify({
    // Walks all three services: the seed gives most feedback an author among the contacts, at an account's domain.
    query: `{ feedbackItems(apiKey: "${key}", take: 3, sentiment: "negative") { total items { title createdAt contact { name account { name feedbackSummary { total negative unread } } } } } }`,
  });
  return `curl -s ${gatewayUrl} -H 'content-type: application/json' -d '${body}'`;
}
