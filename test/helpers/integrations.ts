import { identityAudit, integrationParts, loadIntegrationsConfig } from '@fi/integrations';
import { createLogger } from '@fi/shared';
import type { Stack } from './stack';

export const INTEGRATION_FIELDS = 'id kind name status itemsReceived lastEventAt lastError';

export interface IntegrationView {
  id: string;
  kind: string;
  name: string;
  status: string;
  itemsReceived: number;
  lastEventAt: string | null;
  lastError: string | null;
}

/**
 * Adds a connection through the service's own rules, as an operator's CLI does, and gives its URL on this stack's
 * receiver (the URL the service shows names INTEGRATIONS_PUBLIC_URL's origin).
 */
export async function addConnection(
  stack: Stack,
  orgId: string,
  input: { kind: string; name?: string; secret?: string; token?: string; subdomain?: string },
) {
  const connection = await stack.connect('integrations');
  const { connections } = integrationParts(
    connection,
    loadIntegrationsConfig({ ...process.env, PORT: '0' }),
    identityAudit(stack.identity.url, 5_000),
    createLogger('test', 'silent'),
  );
  const created = await connections.add(orgId, { memberId: null }, input);
  const hookUrl = created.url ? `${stack.integrationsReceiver.url}${new URL(created.url).pathname}` : null;
  return { ...created, hookUrl };
}

/** The public API's list of the key's organization's connections. */
export async function listIntegrations(stack: Stack, key: string): Promise<IntegrationView[]> {
  const answer = await stack.gql<{ integrations: IntegrationView[] }>(
    `query($k: String!) { integrations(apiKey: $k) { ${INTEGRATION_FIELDS} } }`,
    { k: key },
  );
  if (answer.body.errors) throw new Error(JSON.stringify(answer.body.errors));
  return answer.body.data!.integrations;
}

export interface ItemView {
  id: string;
  source: string;
  title: string;
  content: string;
  author: string | null;
  email: string | null;
  externalId: string | null;
  publishedDate: string;
  metadata: Record<string, unknown> | null;
}

/** The key's organization's items of `source`, newest first. */
export async function itemsOf(
  stack: Stack,
  key: string,
  source: string,
): Promise<{ total: number; items: ItemView[] }> {
  const answer = await stack.gql<{ feedbackItems: { total: number; items: ItemView[] } }>(
    `query($k: String!, $s: String) { feedbackItems(apiKey: $k, source: $s, take: 100) { total items { id source title content author email externalId publishedDate metadata } } }`,
    { k: key, s: source },
  );
  if (answer.body.errors) throw new Error(JSON.stringify(answer.body.errors));
  return answer.body.data!.feedbackItems;
}

/** POSTs raw bytes to a connection's URL with the given headers. */
export async function post(url: string, body: string | Buffer, headers: Record<string, string>) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}
