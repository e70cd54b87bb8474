import type { ScimGroup } from './scimGroups';
import type { ScimUser } from './scimUsers';

export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const LIST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';

/** A User resource as RFC 7643 section 4.1 writes it; `emails` is the userName, the one address a member has. */
export function userResource(user: ScimUser, baseUrl: string) {
  return {
    schemas: [USER_SCHEMA],
    id: user.id,
    ...(user.externalId ? { externalId: user.externalId } : {}),
    userName: user.userName,
    name: {
      formatted: user.displayName,
      ...(user.givenName ? { givenName: user.givenName } : {}),
      ...(user.familyName ? { familyName: user.familyName } : {}),
    },
    displayName: user.displayName,
    emails: [{ value: user.userName, type: 'work', primary: true }],
    active: user.active,
    groups: user.active ? [{ value: user.role, display: user.role, $ref: `${baseUrl}/Groups/${user.role}` }] : [],
    meta: {
      resourceType: 'User',
      created: user.created.toISOString(),
      lastModified: user.lastModified.toISOString(),
      location: `${baseUrl}/Users/${user.id}`,
    },
  };
}

/** A Group resource (RFC 7643 section 4.2); `members` left out when the client excluded it (Entra does). */
export function groupResource(group: ScimGroup, baseUrl: string, withMembers: boolean) {
  return {
    schemas: [GROUP_SCHEMA],
    id: group.id,
    displayName: group.id,
    ...(withMembers
      ? {
          members: group.members.map((member) => ({
            value: member.id,
            display: member.email,
            $ref: `${baseUrl}/Users/${member.id}`,
          })),
        }
      : {}),
    meta: { resourceType: 'Group', location: `${baseUrl}/Groups/${group.id}` },
  };
}

/** A ListResponse (RFC 7644 section 3.4.2); startIndex is 1-based. */
export function listResponse(total: number, skip: number, resources: unknown[]) {
  return {
    schemas: [LIST_SCHEMA],
    totalResults: total,
    startIndex: skip + 1,
    itemsPerPage: resources.length,
    Resources: resources,
  };
}
