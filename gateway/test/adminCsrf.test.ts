import http from 'node:http';
import { readFileSync } from 'node:fs';
import { Supergraph } from '@apollo/federation-internals';
import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  type GraphQLField,
  type GraphQLInputType,
} from 'graphql';
import { csrfRequired, type MemberPrincipal } from '@fi/shared';
import { ADMIN_SUPERGRAPH_PATH } from '../src/admin/adminApi';
import { gatewayOverStandIn } from './helpers/gatewayOverStandIn';

/**
 * The identity service's session answer and every service the admin API calls, in one stand-in: it
 * vouches for the session, says the CSRF token matches only when it is `good`, and records every call
 * made to a service's GraphQL path (which the gateway makes only for a request it let through).
 */
const member: MemberPrincipal = {
  ref: 'member-1',
  kind: 'member',
  orgId: 'org-1',
  role: 'owner',
  tier: 'enterprise',
  readOnly: false,
  rateLimitPerMinute: null,
};
const CSRF_REQUIRED = csrfRequired().message;
const serviceCalls: string[] = [];
const services = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json' });
    if (req.url === '/internal/verify-session') {
      res.end(JSON.stringify({ principal: member, csrfValid: req.headers['x-csrf-token'] === 'good' }));
      return;
    }
    serviceCalls.push(req.url ?? '');
    res.end(JSON.stringify({ data: null, errors: [{ message: 'stand-in' }] }));
  });
});

const gateway = gatewayOverStandIn(services);

/** Every mutation of the admin API, its arguments as variables (the check runs before they are read). */
const schema = Supergraph.build(readFileSync(ADMIN_SUPERGRAPH_PATH, 'utf8')).apiSchema().toGraphQLJSSchema();
const mutations = Object.values(schema.getMutationType()?.getFields() ?? {});
const documentOf = (field: GraphQLField<unknown, unknown>) => {
  const variables = field.args.map((arg) => `$${arg.name}: ${String(arg.type)}`).join(', ');
  const args = field.args.map((arg) => `${arg.name}: $${arg.name}`).join(', ');
  const selection = isLeafType(getNamedType(field.type)) ? '' : ' { __typename }';
  return `mutation${variables ? `(${variables})` : ''} { ${field.name}${args ? `(${args})` : ''}${selection} }`;
};
/** A value of each argument, so a request let through reaches its service. */
const sample = (type: GraphQLInputType): unknown => {
  if (isNonNullType(type)) return sample(type.ofType);
  if (isListType(type)) return [sample(type.ofType)];
  if (isEnumType(type)) return type.getValues()[0].value;
  if (isInputObjectType(type))
    return Object.fromEntries(Object.values(type.getFields()).map((field) => [field.name, sample(field.type)]));
  return { Int: 1, Float: 1, Boolean: false }[type.name] ?? 'x';
};
const variablesOf = (field: GraphQLField<unknown, unknown>) =>
  Object.fromEntries(field.args.map((arg) => [arg.name, sample(arg.type)]));
const send = async (query: string, headers: Record<string, string>, variables = {}) => {
  const response = await fetch(`${gateway().url}/admin/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: 'fi_session=live', ...headers },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as { errors?: Array<{ message: string; extensions?: { code?: string } }> };
};

describe('CSRF on the admin API, checked once, by the gateway', () => {
  test('when any admin mutation comes with a live session but without its CSRF token, then it is refused before any service is called', async () => {
    expect(mutations.length).toBeGreaterThan(50);
    const refusals: Array<[string, string | undefined]> = [];
    for (const field of mutations) {
      const answer = await send(documentOf(field), {});
      refusals.push([field.name, answer.errors?.[0]?.extensions?.code]);
      expect([field.name, answer.errors?.[0]?.message]).toEqual([field.name, CSRF_REQUIRED]);
    }
    expect(new Set(refusals.map(([, code]) => code))).toEqual(new Set(['FORBIDDEN']));
    expect(serviceCalls).toEqual([]);
  });

  test('when a wrong token is sent, then it is refused the same; with the right one, each service is called', async () => {
    expect((await send(documentOf(mutations[0]), { 'x-csrf-token': 'forged' })).errors?.[0]?.message).toBe(
      CSRF_REQUIRED,
    );
    expect(serviceCalls).toEqual([]);
    for (const field of mutations) await send(documentOf(field), { 'x-csrf-token': 'good' }, variablesOf(field));
    // identity's schema at /graphql, the four services' admin schemas at /admin/graphql.
    expect(new Set(serviceCalls)).toEqual(new Set(['/graphql', '/admin/graphql']));
    expect(serviceCalls.length).toBe(mutations.length);
  });
});
