import { readFileSync } from 'node:fs';
import { GraphQLError } from 'graphql';
import { loadConfig, ROLES, SecretBox, type Role } from '@fi/shared';
import {
  checkDomain,
  OIDC_CALLBACK_PATH,
  openRepositories,
  openSsoRepositories,
  OPERATOR,
  SAML_ACS_PATH,
  SAML_METADATA_PATH,
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
  samlMetadata?: string;
}

function readMetadataFile(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`--saml-metadata ${file} cannot be read: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
  }
}

/** The identity service's own settings: against a running `npm start`, its development defaults. */
function ssoSettings(env: NodeJS.ProcessEnv) {
  const stack = !env.MONGODB_URI ? readRunningStack() : null;
  const config = loadConfig(ssoConfigSchema, { ...env, ...(stack ? developmentSsoEnv(env) : {}) });
  const web = (env.PUBLIC_URL || (stack ? new URL(stack.gatewayUrl).origin : 'PUBLIC_URL')).replace(/\/+$/, '');
  return {
    config,
    addresses: {
      oidcCallback: `${web}${OIDC_CALLBACK_PATH}`,
      acsUrl: `${web}${SAML_ACS_PATH}`,
      entityId: `${web}${SAML_METADATA_PATH}`,
    },
  };
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
  const { config, addresses } = ssoSettings(env);
  const secrets = config.ssoSecretKey ? new SecretBox(config.ssoSecretKey, 'SSO_SECRET_KEY') : null;
  const settings = new SsoSettings(
    await openRepositories(db.identity),
    await openSsoRepositories(db.identity),
    secrets,
    { allowLoopbackHttp: config.ssoAllowLoopbackHttp, dnsServers: config.ssoDnsServers },
  );
  if (action === 'set') {
    const saml = options.samlMetadata !== undefined;
    if (!options.domain || (!saml && (!options.issuer || !options.clientId || !options.clientSecret)))
      throw new UsageError(
        'sso set needs --org ORG --issuer URL --client-id ID --client-secret SECRET --domain DOMAIN (or --saml-metadata FILE --domain DOMAIN)',
      );
    // Every argument checked before anything is written.
    const domain = checkDomain(options.domain);
    const defaultRole = parseRole(options.defaultRole);
    if (saml)
      await settings.setSaml(OPERATOR, orgId, {
        metadataXml: readMetadataFile(options.samlMetadata as string),
        metadataUrl: null,
        defaultRole,
      });
    else
      await settings.setOidc(OPERATOR, orgId, {
        issuer: options.issuer as string,
        clientId: options.clientId as string,
        clientSecret: options.clientSecret as string,
        defaultRole,
      });
    const added = await settings.addDomain(OPERATOR, orgId, domain);
    await settings.verifyDomain(OPERATOR, orgId, added.domain, true);
    const back = saml
      ? `the ACS URL ${addresses.acsUrl} and the entity id ${addresses.entityId}`
      : `the redirect URI ${addresses.oidcCallback}`;
    out.info(`Single sign-on set for ${orgId}: ${added.domain} (verified). Give the provider ${back}.`);
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
  if (connection.saml) {
    out.result(`idp entity id\t${connection.saml.entityId}`);
    out.result(`acs url\t${addresses.acsUrl}`);
    out.result(`sp entity id\t${addresses.entityId}`);
  } else out.result(`redirect uri\t${addresses.oidcCallback}`);
  out.result(`default role\t${connection.defaultRole}`);
  out.result(`updated\t${connection.updatedAt.toISOString()} by ${connection.updatedBy}`);
  for (const domain of await settings.domains(OPERATOR, orgId))
    out.result(
      `domain\t${domain.domain}\t${domain.verified ? 'verified' : `unverified (TXT ${domain.verificationName} = ${domain.verificationValue})`}\t${domain.ssoRequired ? 'SSO required' : 'password allowed'}`,
    );
}
