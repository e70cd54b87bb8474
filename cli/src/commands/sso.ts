import { GraphQLError } from 'graphql';
import { loadConfig, ROLES, SecretBox, type Role } from '@fi/shared';
import {
  checkDomain,
  openRepositories,
  openSsoRepositories,
  OPERATOR,
  ssoConfigSchema,
  SsoSettings,
} from '@fi/identity';
import type { Databases } from '../databases';
import { UsageError, type Output } from '../output';
import { developmentSsoEnv } from '../stack/developmentSso';
import { readRunningStack } from '../stack/stackFile';
import { CLIENT_CODES } from './keys';

export interface SsoOptions {
  org?: string;
  issuer?: string;
  clientId?: string;
  clientSecret?: string;
  domain?: string;
  defaultRole?: string;
}

/** The identity service's own settings: against a running `npm start`, its development defaults. */
function ssoSettings(env: NodeJS.ProcessEnv) {
  const stack = !env.MONGODB_URI ? readRunningStack() : null;
  const config = loadConfig(ssoConfigSchema, { ...env, ...(stack ? developmentSsoEnv(env) : {}) });
  const webOrigin = env.PUBLIC_URL || (stack ? new URL(stack.gatewayUrl).origin : 'PUBLIC_URL');
  return { config, redirectUri: `${webOrigin.replace(/\/+$/, '')}/auth/oidc/callback` };
}

function parseRole(value: string | undefined): Role {
  if (value === undefined) return 'member';
  if (!(ROLES as readonly string[]).includes(value))
    throw new UsageError(`--default-role must be one of ${ROLES.join(', ')}`);
  return value as Role;
}

/**
 * `sso set|show|remove`, through the identity service's rules (SsoSettings) as an operator (`cli` in the
 * audit log). `set` marks its --domain verified without a DNS record: an operator at a shell is trusted,
 * as with every other command; owners in the web application prove theirs with a TXT record.
 */
export async function ssoCommand(
  action: string | undefined,
  options: SsoOptions,
  db: Databases,
  out: Output,
  env = process.env,
) {
  try {
    await runSso(action, options, db, out, env);
  } catch (error) {
    if (error instanceof GraphQLError && CLIENT_CODES.includes(error.extensions.code))
      throw new UsageError(error.message);
    throw error;
  }
}

async function runSso(
  action: string | undefined,
  options: SsoOptions,
  db: Databases,
  out: Output,
  env: NodeJS.ProcessEnv,
) {
  if (!['set', 'show', 'remove'].includes(action ?? '')) throw new UsageError('sso needs set, show or remove');
  if (!options.org) throw new UsageError(`sso ${action} needs --org ORG`);
  const orgId = options.org;
  const { config, redirectUri } = ssoSettings(env);
  const secrets = config.ssoSecretKey ? new SecretBox(config.ssoSecretKey, 'SSO_SECRET_KEY') : null;
  const settings = new SsoSettings(
    await openRepositories(db.identity),
    await openSsoRepositories(db.identity),
    secrets,
    { allowLoopbackHttp: config.ssoAllowLoopbackHttp, dnsServers: config.ssoDnsServers },
  );
  if (action === 'set') {
    if (!options.issuer || !options.clientId || !options.clientSecret || !options.domain)
      throw new UsageError(
        'sso set needs --org ORG --issuer URL --client-id ID --client-secret SECRET --domain DOMAIN',
      );
    // Every argument checked before anything is written.
    const domain = checkDomain(options.domain);
    await settings.setOidc(OPERATOR, orgId, {
      issuer: options.issuer,
      clientId: options.clientId,
      clientSecret: options.clientSecret,
      defaultRole: parseRole(options.defaultRole),
    });
    const added = await settings.addDomain(OPERATOR, orgId, domain);
    await settings.verifyDomain(OPERATOR, orgId, added.domain, true);
    out.info(
      `Single sign-on set for ${orgId}: ${added.domain} (verified). Give the provider the redirect URI ${redirectUri}.`,
    );
    return;
  }
  if (action === 'remove') {
    out.info(
      (await settings.remove(OPERATOR, orgId))
        ? `Single sign-on removed from ${orgId}.`
        : `${orgId} had no single sign-on.`,
    );
    return;
  }
  const connection = await settings.connection(OPERATOR, orgId);
  if (!connection) {
    out.info(`${orgId} has no single sign-on.`);
    return;
  }
  out.result(`protocol\t${connection.protocol}`);
  if (connection.oidc) {
    out.result(`issuer\t${connection.oidc.issuer}`);
    out.result(`client id\t${connection.oidc.clientId}`);
  }
  out.result(`default role\t${connection.defaultRole}`);
  out.result(`redirect uri\t${redirectUri}`);
  out.result(`updated\t${connection.updatedAt.toISOString()} by ${connection.updatedBy}`);
  for (const domain of await settings.domains(OPERATOR, orgId))
    out.result(
      `domain\t${domain.domain}\t${domain.verified ? 'verified' : `unverified (TXT ${domain.verificationName} = ${domain.verificationValue})`}\t${domain.ssoRequired ? 'SSO required' : 'password allowed'}`,
    );
}
