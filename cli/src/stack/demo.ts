import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ApiKeyStore } from '@fi/shared';
import { seedOrganization } from '../commands/seed';
import type { Databases } from '../databases';
import type { Output } from '../output';
import { DATA_DIR } from './stackFile';

export const DEMO_ORG = 'demo';
const DEMO_KEY_FILE = path.join(DATA_DIR, 'demo-api-key');

/**
 * On the first start with an empty database: a demo organization with realistic data and a key.
 * The key is kept in .data/demo-api-key (local only, git-ignored, mode 600), so every later start
 * can print a working curl command too.
 */
export async function ensureDemo(db: Databases, out: Output): Promise<string | null> {
  const store = new ApiKeyStore(db.auth);
  await store.ensureIndexes();
  if ((await store.list(DEMO_ORG)).length > 0) {
    return existsSync(DEMO_KEY_FILE) ? readFileSync(DEMO_KEY_FILE, 'utf8').trim() : null;
  }
  out.info('Empty database: seeding the "demo" organization...');
  await seedOrganization(DEMO_ORG, { feedback: 2_000, contacts: 300, accounts: 60 }, db, out);
  const { key } = await store.create({ orgId: DEMO_ORG, tier: 'pro', readOnly: false });
  writeFileSync(DEMO_KEY_FILE, `${key}\n`, { mode: 0o600 });
  return key;
}

export function curlExample(gatewayUrl: string, key: string): string {
  const body = JSON.stringify({
    // Walks all three services: the seed gives most feedback an author among the contacts, at an account's domain.
    query: `{ feedbackItems(apiKey: "${key}", take: 3, sentiment: "negative") { total items { title createdAt contact { name account { name feedbackSummary { total negative unread } } } } } }`,
  });
  return `curl -s ${gatewayUrl} -H 'content-type: application/json' -d '${body}'`;
}
