// Provisioning of an organization's people by its identity provider (SCIM 2.0, RFC 7643 and RFC 7644), and
// the tokens it uses. Entered through this file.
import type { IncomingMessage } from 'node:http';
import type { Logger } from '@fi/shared';
import type { Connection } from '@fi/shared/database';
import type { IdentityRepositories } from '../data/repositories';
import type { MemberService } from '../domain/memberService';
import { ProvisionedUserRepository, ScimTokenRepository } from './data';
import { ScimGroups } from './scimGroups';
import { SCIM_PATH, scimRoute } from './scimRoute';
import { ScimTokenService } from './scimTokens';
import { ScimUsers } from './scimUsers';

export { SCIM_PATH } from './scimRoute';
export { scimResolvers } from './scimResolvers';
export { ScimTokenService } from './scimTokens';
export type { ScimTokenRecord } from './data';

/** The organizations' SCIM tokens (the CLI's `scim token` uses them alone). */
export async function openScimTokens(connection: Connection, repositories: IdentityRepositories) {
  const store = new ScimTokenRepository(connection);
  await store.ensureIndexes();
  return new ScimTokenService(repositories, store);
}

/** The provisioning feature on the identity database: its token service, and its HTTP route. */
export async function openScim(
  connection: Connection,
  repositories: IdentityRepositories,
  members: MemberService,
  options: { publicUrl: string; addressOf: (req: IncomingMessage) => string; logger: Logger },
) {
  const tokens = await openScimTokens(connection, repositories);
  const provisioned = new ProvisionedUserRepository(connection);
  await provisioned.ensureIndexes();
  const route = scimRoute({
    tokens,
    users: new ScimUsers(repositories, members, provisioned),
    groups: new ScimGroups(repositories, members),
    baseUrl: `${options.publicUrl}${SCIM_PATH}`,
    addressOf: options.addressOf,
    logger: options.logger,
  });
  return { tokens, routes: { [SCIM_PATH]: route } };
}
