import { MAX_COUNT } from './scimFilter';
import { GROUP_SCHEMA, listResponse, USER_SCHEMA } from './scimResources';

const SCHEMA_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Schema';
const RESOURCE_TYPE_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:ResourceType';
const CONFIG_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig';

/** What this service supports (RFC 7643 section 5): PATCH and equality filters; no bulk, sort, ETags or password changes. */
export function serviceProviderConfig(baseUrl: string) {
  return {
    schemas: [CONFIG_SCHEMA],
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: MAX_COUNT },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: false },
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'Bearer token',
        description: "A SCIM token of the organization (Settings, SCIM tokens, or the CLI's scim token)",
        primary: true,
      },
    ],
    meta: { resourceType: 'ServiceProviderConfig', location: `${baseUrl}/ServiceProviderConfig` },
  };
}

type Attribute = {
  name: string;
  type: 'string' | 'boolean' | 'complex' | 'reference';
  multiValued?: boolean;
  required?: boolean;
  mutability?: 'readOnly' | 'readWrite' | 'immutable';
  uniqueness?: 'none' | 'server';
  subAttributes?: Attribute[];
};

interface AttributeDefinition extends Omit<Attribute, 'subAttributes'> {
  subAttributes?: AttributeDefinition[];
}

/** An attribute with every characteristic RFC 7643 section 7 lists, defaults filled in. */
const attribute = ({
  multiValued = false,
  required = false,
  mutability = 'readWrite',
  uniqueness = 'none',
  ...rest
}: Attribute): AttributeDefinition & { caseExact: boolean; returned: string } => ({
  ...rest,
  multiValued,
  required,
  caseExact: false,
  mutability,
  returned: 'default',
  uniqueness,
  ...(rest.subAttributes ? { subAttributes: rest.subAttributes.map(attribute) } : {}),
});

const SCHEMAS = [
  {
    id: USER_SCHEMA,
    name: 'User',
    description: 'A member of the organization',
    attributes: [
      { name: 'userName', type: 'string', required: true, uniqueness: 'server' },
      {
        name: 'name',
        type: 'complex',
        subAttributes: [
          { name: 'formatted', type: 'string' },
          { name: 'givenName', type: 'string' },
          { name: 'familyName', type: 'string' },
        ],
      },
      { name: 'displayName', type: 'string' },
      {
        name: 'emails',
        type: 'complex',
        multiValued: true,
        mutability: 'readOnly',
        subAttributes: [
          { name: 'value', type: 'string' },
          { name: 'type', type: 'string' },
          { name: 'primary', type: 'boolean' },
        ],
      },
      { name: 'active', type: 'boolean' },
      {
        name: 'groups',
        type: 'complex',
        multiValued: true,
        mutability: 'readOnly',
        subAttributes: [
          { name: 'value', type: 'string' },
          { name: 'display', type: 'string' },
        ],
      },
    ] satisfies Attribute[],
  },
  {
    id: GROUP_SCHEMA,
    name: 'Group',
    description: 'A role of the organization: owner, admin, member or viewer',
    attributes: [
      { name: 'displayName', type: 'string', required: true, mutability: 'immutable', uniqueness: 'server' },
      {
        name: 'members',
        type: 'complex',
        multiValued: true,
        subAttributes: [
          { name: 'value', type: 'string' },
          { name: 'display', type: 'string' },
        ],
      },
    ] satisfies Attribute[],
  },
];

export function schemaResources(baseUrl: string) {
  return SCHEMAS.map((schema) => ({
    schemas: [SCHEMA_SCHEMA],
    ...schema,
    attributes: schema.attributes.map(attribute),
    meta: { resourceType: 'Schema', location: `${baseUrl}/Schemas/${schema.id}` },
  }));
}

export function resourceTypes(baseUrl: string) {
  return [
    { id: 'User', name: 'User', endpoint: '/Users', schema: USER_SCHEMA },
    { id: 'Group', name: 'Group', endpoint: '/Groups', schema: GROUP_SCHEMA },
  ].map((type) => ({
    schemas: [RESOURCE_TYPE_SCHEMA],
    ...type,
    schemaExtensions: [],
    meta: { resourceType: 'ResourceType', location: `${baseUrl}/ResourceTypes/${type.id}` },
  }));
}

/** A discovery endpoint's answer: the list, or the one resource named by `id` (null when there is none). */
export function discovery(kind: 'Schemas' | 'ResourceTypes', baseUrl: string, id: string | undefined) {
  const all: Array<{ id: string }> = kind === 'Schemas' ? schemaResources(baseUrl) : resourceTypes(baseUrl);
  if (id === undefined) return listResponse(all.length, 0, all);
  return all.find((resource) => resource.id === id) ?? null;
}
