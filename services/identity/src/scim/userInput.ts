import { isPlainObject } from '@fi/shared';
import { invalidSyntax, invalidValue, ScimError } from './scimErrors';

/** What this service keeps of a SCIM User (RFC 7643 section 4.1); `emails` follow `userName`. */
export interface UserInput {
  userName: string;
  displayName: string | null;
  givenName: string | null;
  familyName: string | null;
  formatted: string | null;
  externalId: string | null;
  active: boolean;
}

const CORE_USER = 'urn:ietf:params:scim:schemas:core:2.0:user:';
/**
 * Core attributes this service does not keep. Identity providers send them by default (Entra's default
 * mappings include title, phoneNumbers, addresses, preferredLanguage), so they are accepted and dropped
 * rather than failing the whole provisioning of a person; extension attributes (the enterprise User's
 * department, manager...) likewise. `emails` follow `userName`, which is the email address.
 */
const IGNORED = new Set([
  'emails',
  'nickname',
  'profileurl',
  'title',
  'usertype',
  'preferredlanguage',
  'locale',
  'timezone',
  'phonenumbers',
  'addresses',
  'ims',
  'photos',
  'x509certificates',
  'entitlements',
  'roles',
  'groups',
  'password',
  'id',
  'meta',
  'schemas',
]);

const MAX_TEXT = 256;

function text(value: unknown, attribute: string): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string') throw invalidValue(`${attribute} must be a string`);
  if (value.length > MAX_TEXT) throw invalidValue(`${attribute} must have at most ${MAX_TEXT} characters`);
  return value.trim() === '' ? null : value;
}

/** Entra sends booleans as the strings "True" and "False" in PATCH; both forms are read. */
function bool(value: unknown, attribute: string): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  throw invalidValue(`${attribute} must be true or false`);
}

/** Sets one attribute (a path of lower-case names, without the core schema's prefix) of `user`. */
function setAttribute(user: UserInput, path: string, value: unknown): void {
  const attribute = path.toLowerCase().startsWith(CORE_USER) ? path.slice(CORE_USER.length) : path;
  switch (attribute.toLowerCase()) {
    case 'username': {
      const userName = text(value, 'userName');
      if (!userName) throw new ScimError(400, 'userName is required', 'mutability');
      user.userName = userName;
      return;
    }
    case 'displayname':
      user.displayName = text(value, 'displayName');
      return;
    case 'externalid':
      user.externalId = text(value, 'externalId');
      return;
    case 'active':
      if (value === null || value === undefined) throw new ScimError(400, 'active cannot be removed', 'mutability');
      user.active = bool(value, 'active');
      return;
    case 'name.givenname':
      user.givenName = text(value, 'name.givenName');
      return;
    case 'name.familyname':
      user.familyName = text(value, 'name.familyName');
      return;
    case 'name.formatted':
      user.formatted = text(value, 'name.formatted');
      return;
    case 'name': {
      if (value !== null && value !== undefined && !isPlainObject(value)) throw invalidValue('name must be an object');
      const name = (value ?? {}) as Record<string, unknown>;
      const part = (key: string) => Object.entries(name).find(([k]) => k.toLowerCase() === key)?.[1];
      user.givenName = text(part('givenname'), 'name.givenName');
      user.familyName = text(part('familyname'), 'name.familyName');
      user.formatted = text(part('formatted'), 'name.formatted');
      return;
    }
    default: {
      const root = attribute.toLowerCase().split(/[.[]/)[0];
      if (IGNORED.has(root) || attribute.toLowerCase().startsWith('urn:')) return;
      throw new ScimError(400, `Unknown attribute ${path}`, 'invalidPath');
    }
  }
}

/** A User resource's body (POST, PUT), every attribute not given left unassigned (RFC 7644 section 3.5.1). */
export function parseUser(body: unknown): UserInput {
  if (!isPlainObject(body)) throw invalidSyntax('The body must be a User resource (a JSON object)');
  const user: UserInput = {
    userName: '',
    displayName: null,
    givenName: null,
    familyName: null,
    formatted: null,
    externalId: null,
    active: true,
  };
  for (const [key, value] of Object.entries(body)) setAttribute(user, key, value);
  if (!user.userName) throw invalidValue('userName is required');
  return user;
}

const PATCH_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

export interface PatchOperation {
  op: 'add' | 'replace' | 'remove';
  path: string | null;
  value: unknown;
}

/** A PatchOp body (RFC 7644 section 3.5.2): its operations, `op` case-insensitive as Entra writes it. */
export function parsePatch(body: unknown): PatchOperation[] {
  if (!isPlainObject(body) || !Array.isArray(body.schemas) || !body.schemas.includes(PATCH_SCHEMA))
    throw invalidSyntax(`A PATCH body must name the schema ${PATCH_SCHEMA}`);
  const operations = body.Operations ?? body.operations;
  if (!Array.isArray(operations) || operations.length === 0)
    throw invalidSyntax('A PATCH body must have a non-empty Operations array');
  return operations.map((operation: unknown) => {
    if (!isPlainObject(operation) || typeof operation.op !== 'string')
      throw invalidSyntax('Each operation must be an object with an op');
    const op = operation.op.toLowerCase();
    if (op !== 'add' && op !== 'replace' && op !== 'remove')
      throw invalidSyntax(`op must be add, replace or remove (got ${JSON.stringify(operation.op.slice(0, 20))})`);
    if (operation.path !== undefined && typeof operation.path !== 'string')
      throw new ScimError(400, 'path must be a string', 'invalidPath');
    const path = typeof operation.path === 'string' && operation.path.trim() !== '' ? operation.path.trim() : null;
    if (op === 'remove' && path === null) throw new ScimError(400, 'A remove operation needs a path', 'noTarget');
    return { op, path, value: operation.value };
  });
}

/** Applies a User PATCH's operations to the user as it is, giving the user as it will be. */
export function patchUser(current: UserInput, operations: PatchOperation[]): UserInput {
  const next = { ...current };
  for (const { op, path, value } of operations) {
    if (path !== null) {
      setAttribute(next, path, op === 'remove' ? null : value);
      continue;
    }
    // No path: the value is an object of attributes to add or replace (Okta writes {"active": false}).
    if (!isPlainObject(value)) throw invalidValue(`An ${op} operation without a path needs an object value`);
    for (const [key, attributeValue] of Object.entries(value)) setAttribute(next, key, attributeValue);
  }
  return next;
}
