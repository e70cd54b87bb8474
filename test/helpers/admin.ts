import { randomUUID } from 'node:crypto';
import { IDENTITY_HEADER, parseSigningKeys, signIdentity, type Principal, type Role } from '@fi/shared';
import { MemberService, openRepositories, OPERATOR } from '@fi/identity';
import type { GraphQLResponse, Stack } from './stack';

/** A signed-in member as the gateway would sign them for a service's admin schema. */
export function memberPrincipal(orgId: string, role: Role, ref = `member-${randomUUID()}`): Principal {
  return { ref, kind: 'member', orgId, role, tier: 'pro', readOnly: role === 'viewer', rateLimitPerMinute: null };
}

export const signedFor = (principals: Principal[]) => ({
  [IDENTITY_HEADER]: signIdentity(parseSigningKeys(process.env.IDENTITY_SIGNING_KEYS ?? ''), principals, 600_000),
});

/** POSTs to a service's admin schema (`<service url>/admin/graphql`) as the gateway would, for `principals`. */
export async function serviceAdmin<T = Record<string, unknown>>(
  serviceUrl: string,
  principals: Principal[] | null,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<GraphQLResponse<T>['body']> {
  const response = await fetch(`${serviceUrl}/admin/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(principals ? signedFor(principals) : {}) },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as GraphQLResponse<T>['body'];
}

export const CONTACT_FIELDS = 'id name email phone company title location tags createdAt';
export const ACCOUNT_FIELDS = 'id name domain description website score churnRisk tags createdAt';

const FEEDBACK_ITEM_FIELDS = 'id title status sentiment source email updatedAt';

export const ADMIN = {
  feedbackItems: `query($status: String, $sentiment: String, $source: String, $search: String, $theme: String, $skip: Int, $take: Int) {
    feedbackItems(status: $status, sentiment: $sentiment, source: $source, search: $search, theme: $theme, skip: $skip, take: $take) { total items { ${FEEDBACK_ITEM_FIELDS} } } }`,
  feedbackItem: `query($id: String!) { feedbackItem(id: $id) { ${FEEDBACK_ITEM_FIELDS} similar(take: 3) { score item { id title } } themes { id label } } }`,
  changeFeedbackStatus: `mutation($id: String!, $status: String!) { changeFeedbackStatus(id: $id, status: $status) { ${FEEDBACK_ITEM_FIELDS} } }`,
  changeFeedbackStatuses:
    'mutation($ids: [String!]!, $status: String!) { changeFeedbackStatuses(ids: $ids, status: $status) }',
  feedbackInsights: `query($from: DateTime!, $to: DateTime!, $interval: String) { feedbackInsights(from: $from, to: $to, interval: $interval) {
    total bySentiment { positive neutral negative none } byStatus { unread read archived } bySource { source count }
    series { start count positive negative } topTerms { term count } risingThemes { count previousCount theme { id label } } } }`,
  webhookEndpoints: '{ webhookEndpoints { id url events secret enabled disabledReason createdAt } }',
  webhookDeliveries:
    'query($endpointId: String!) { webhookDeliveries(endpointId: $endpointId) { total items { id eventType status attempts { at statusCode error durationMs } } } }',
  addWebhookEndpoint:
    'mutation($url: String!, $events: [String!]!) { addWebhookEndpoint(url: $url, events: $events) { id url events secret enabled disabledReason createdAt } }',
  removeWebhookEndpoint: 'mutation($id: String!) { removeWebhookEndpoint(id: $id) }',
  feedbackThemes:
    'query($from: DateTime, $to: DateTime) { feedbackThemes(from: $from, to: $to) { total computedAt items { id label count negative previousCount } } }',
  contacts: `query($search: String, $skip: Int, $take: Int) { contacts(search: $search, skip: $skip, take: $take) { total items { ${CONTACT_FIELDS} } } }`,
  contact: `query($id: String!) { contact(id: $id) { ${CONTACT_FIELDS} } }`,
  createContact: `mutation($input: ContactInput!) { createContact(input: $input) { ${CONTACT_FIELDS} } }`,
  updateContact: `mutation($id: String!, $input: ContactInput!) { updateContact(id: $id, input: $input) { ${CONTACT_FIELDS} } }`,
  deleteContact: 'mutation($id: String!) { deleteContact(id: $id) }',
  importContacts:
    'mutation($csv: String!, $dryRun: Boolean) { importContacts(csv: $csv, dryRun: $dryRun) { rows imported problems { row field message } } }',
  accounts: `query($search: String) { accounts(search: $search) { total items { ${ACCOUNT_FIELDS} } } }`,
  createAccount: `mutation($input: AccountInput!) { createAccount(input: $input) { ${ACCOUNT_FIELDS} } }`,
  updateAccount: `mutation($id: String!, $input: AccountInput!) { updateAccount(id: $id, input: $input) { ${ACCOUNT_FIELDS} } }`,
  deleteAccount: 'mutation($id: String!) { deleteAccount(id: $id) }',
  importAccounts:
    'mutation($csv: String!, $dryRun: Boolean) { importAccounts(csv: $csv, dryRun: $dryRun) { rows imported problems { row field message } } }',
};

/**
 * A new member of `orgId` with `role`, signed in at the gateway's POST /admin/graphql as the web application
 * does (session cookie, CSRF token); `send` posts as them. Their email is their audit log actor.
 */
export async function signInMember(stack: Stack, orgId: string, role: Role) {
  const members = new MemberService(await openRepositories(await stack.connect('identity')));
  const email = `${role}-${randomUUID()}@example.com`;
  const password = 'correct horse battery staple';
  const member = await members.add(OPERATOR, orgId, { email, name: role, role, password });
  const post = async <T>(query: string, variables: Record<string, unknown>, headers: Record<string, string> = {}) => {
    const response = await fetch(`${stack.gateway.url}/admin/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ query, variables }),
    });
    return {
      setCookie: response.headers.get('set-cookie'),
      body: (await response.json()) as GraphQLResponse<T>['body'],
    };
  };
  const signedIn = await post<{ signIn: { csrfToken: string } }>(
    'mutation($e: String!, $p: String!) { signIn(email: $e, password: $p) { csrfToken } }',
    { e: email, p: password },
  );
  const cookie = signedIn.setCookie!.split(';')[0];
  const csrf = signedIn.body.data!.signIn.csrfToken;
  return {
    id: member.id,
    email,
    send: async <T = Record<string, unknown>>(query: string, variables: Record<string, unknown> = {}) =>
      (await post<T>(query, variables, { cookie, 'x-csrf-token': csrf })).body,
  };
}
