import { GraphQLError } from 'graphql';
import { openRepositories, recordServiceAudit } from '@fi/identity';
import { integrationParts, integrationsConfigSchema, KINDS, type AuditPort } from '@fi/integrations';
import { createLogger, loadConfig } from '@fi/shared';
import type { Databases } from '../databases';
import { UsageError, type Output } from '../output';
import { parseCount } from './seed';
import { developmentIntegrationsEnv } from '../stack/developmentWebhooks';
import { readRunningStack } from '../stack/stackFile';

export interface IntegrationsOptions {
  org?: string;
  kind?: string;
  name?: string;
  secret?: string;
  token?: string;
  subdomain?: string;
  backfillDays?: string;
}

/** What the CLI needs of the service's settings: its sealing key and where connections are reached. */
const { integrationsSecretKey, hookPublicUrl, inboundMailDomain } = integrationsConfigSchema;
const cliSettings = { integrationsSecretKey, hookPublicUrl, inboundMailDomain };

/** Against a running `npm start`, its development key; otherwise the operator's environment. */
function settings(env: NodeJS.ProcessEnv) {
  const development = !env.MONGODB_URI && readRunningStack() ? developmentIntegrationsEnv(env) : {};
  return loadConfig(cliSettings, { ...env, ...development });
}

/**
 * `integrations add|list|remove`, through the integrations service's own rules; every change goes into the
 * organization's audit log (actor `cli`) through the identity service's rules. `add` prints one JSON object
 * on stdout: `{ id, kind, url | address, secret (when generated) }`.
 */
export async function integrationsCommand(
  action: string | undefined,
  args: string[],
  options: IntegrationsOptions,
  db: Databases,
  out: Output,
  env = process.env,
) {
  if (!options.org) throw new UsageError(`integrations ${action ?? ''} needs --org ORG`.replace('  ', ' '));
  const identity = await openRepositories(db.identity);
  const audit: AuditPort = {
    record: (orgId, actor, action, target) =>
      recordServiceAudit(identity, { orgId, memberId: actor.memberId, action, target }),
  };
  const parts = integrationParts(db.integrations, settings(env), audit, createLogger('cli', 'silent'));
  await parts.ensureIndexes();
  const { connections } = parts;
  const operator = { memberId: null };
  try {
    switch (action) {
      case 'list':
        for (const connection of await connections.list(options.org)) {
          out.result(
            [
              connection.id,
              connection.kind,
              connection.name,
              connection.status,
              `${connection.itemsReceived} items`,
              connection.lastEventAt?.toISOString() ?? '-',
              connection.lastError ?? '',
            ].join('\t'),
          );
        }
        return;
      case 'add': {
        if (!options.kind) throw new UsageError(`integrations add needs --kind ${KINDS.join('|')}`);
        const created = await connections.add(options.org, operator, {
          kind: options.kind,
          name: options.name,
          secret: options.secret,
          token: options.token,
          subdomain: options.subdomain,
          backfillDays:
            options.backfillDays === undefined ? undefined : parseCount('backfill-days', options.backfillDays, 0),
        });
        out.result(
          JSON.stringify({
            id: created.integration.id,
            kind: created.integration.kind,
            ...(created.url ? { url: created.url } : {}),
            ...(created.address ? { address: created.address } : {}),
            ...(created.secret ? { secret: created.secret } : {}),
          }),
        );
        out.info(
          `Added ${created.integration.kind} integration ${created.integration.id}: its ${created.url ? 'URL' : 'address'}${created.secret ? ' and secret are' : ' is'} shown only this once.`,
        );
        return;
      }
      case 'remove':
        if (!args[0]) throw new UsageError('integrations remove needs the integration id');
        if (!(await connections.remove(options.org, operator, args[0])))
          throw new UsageError(`No integration ${args[0]} in organization ${options.org}`);
        out.info(`Removed integration ${args[0]} with its credentials and received events.`);
        return;
      default:
        throw new UsageError('integrations needs add, list or remove');
    }
  } catch (error) {
    // The rules speak the API's error vocabulary; for the CLI a refused input is a usage error.
    if (error instanceof GraphQLError && ['BAD_REQUEST', 'NOT_FOUND'].includes(String(error.extensions.code)))
      throw new UsageError(error.message);
    throw error;
  }
}
