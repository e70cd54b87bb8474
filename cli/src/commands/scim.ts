import { GraphQLError } from 'graphql';
import { openRepositories, openScimTokens, OPERATOR } from '@fi/identity';
import { ErrorCode } from '@fi/shared';
import type { Databases } from '../databases';
import { UsageError, type Output } from '../output';

const CLIENT_CODES: unknown[] = [ErrorCode.BAD_REQUEST, ErrorCode.NOT_FOUND, ErrorCode.FORBIDDEN];

/**
 * `scim token|tokens|revoke`: the SCIM tokens an organization's identity provider provisions people with,
 * through the identity service's rules as an operator (the token acts as an owner's). The token is printed
 * once, on stdout alone, at creation.
 */
export async function scimCommand(
  action: string | undefined,
  args: string[],
  options: { org?: string; name?: string },
  db: Databases,
  out: Output,
) {
  if (!options.org) throw new UsageError(`scim ${action ?? 'token'} needs --org ORG`);
  const tokens = await openScimTokens(db.identity, await openRepositories(db.identity));
  try {
    switch (action) {
      case 'token': {
        const { token, record } = await tokens.create(OPERATOR, options.org, options.name ?? 'cli');
        out.result(token);
        out.info(`Created ${record.id} for ${record.orgId}. The token is shown only this once.`);
        return;
      }
      case 'tokens':
        for (const record of await tokens.list(OPERATOR, options.org)) {
          out.result(
            [
              record.id,
              `${record.hint}…`,
              record.name,
              record.role,
              record.createdBy,
              record.createdAt.toISOString(),
              record.revokedAt ? `revoked ${record.revokedAt.toISOString()}` : 'active',
              record.lastUsedAt ? `last used ${record.lastUsedAt.toISOString()}` : 'never used',
            ].join('\t'),
          );
        }
        return;
      case 'revoke': {
        if (!args[0]) throw new UsageError('scim revoke needs the token id (scim tokens lists them)');
        const record = await tokens.revoke(OPERATOR, options.org, args[0]);
        out.info(`Revoked ${record.id}.`);
        return;
      }
      default:
        throw new UsageError('scim needs token, tokens or revoke');
    }
  } catch (error) {
    if (error instanceof GraphQLError && CLIENT_CODES.includes(error.extensions.code))
      throw new UsageError(error.message);
    throw error;
  }
}
