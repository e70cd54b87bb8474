import { parseArgs } from 'node:util';
import { importCommand } from './commands/import';
import { integrationsCommand } from './commands/integrations';
import { keysCommand } from './commands/keys';
import { linksCommand } from './commands/links';
import { countsCommand } from './commands/counts';
import { webhooksCommand } from './commands/webhooks';
import { parseCount, seedOrganization } from './commands/seed';
import { scimCommand } from './commands/scim';
import { sentimentCommand } from './commands/sentiment';
import { ssoCommand } from './commands/sso';
import { openDatabases } from './databases';
import { consoleOutput, UsageError, type Output } from './output';

export const USAGE = `Usage: npm run cli -- <command>

  keys create --org ORG [--tier free|pro|enterprise] [--read-only] [--rate-limit N] [--name NAME]
                                   create a key (and the organization, on that plan, when it
                                   is new); prints only the key, once
  keys list --org ORG              list an organization's keys (never the secret)
  keys revoke KEY|ID               revoke a key (the key itself or its listed id)
  keys set-limit KEY|ID N|default  give a key its own requests-per-minute limit
  keys migrate                     move the keys of the old shared store (AUTH_MONGODB_URI,
                                   AUTH_MONGODB_DB, default: auth) into the identity service,
                                   once; they keep working unchanged
  scim token --org ORG [--name NAME]
                                   create a token for the organization's identity provider to
                                   provision people with (SCIM 2.0 at the gateway's /scim/v2);
                                   prints only the token, once; it acts as an owner's
  scim tokens --org ORG            list the organization's SCIM tokens (never the secret)
  scim revoke ID --org ORG         revoke a SCIM token (its listed id); it stops at once
  import contacts|accounts|feedback FILE --org ORG [--skip-invalid]
                                   import a JSON array or NDJSON file; all or nothing,
                                   or with --skip-invalid exactly the valid records
  seed --org ORG [--feedback N] [--contacts N] [--accounts N]
                                   generate realistic data in bulk
  webhooks list --org ORG          list an organization's webhook endpoints
  webhooks add --org ORG --url URL --events TYPE[,TYPE...]
                                   add an endpoint; prints only its signing secret, once
  webhooks remove ID --org ORG     remove an endpoint and its delivery history
  webhooks deliveries ID --org ORG [--skip N] [--take N]
                                   an endpoint's deliveries, newest first, with their last attempt
  integrations add --org ORG --kind webhook|intercom|slack|zendesk|email|hubspot [--name NAME]
               [--secret S] [--token T] [--subdomain D] [--backfill-days N]
                                   connect a platform; prints one JSON object: id, kind, url (or
                                   address for email) and the secret when it is generated, once.
                                   --secret takes the platform's (Intercom client secret, Slack
                                   signing secret, Zendesk webhook secret), --token its API token;
                                   --backfill-days: how far a pull's first sync goes back (30)
  integrations list --org ORG      the organization's connections (never a secret)
  integrations remove ID --org ORG remove a connection, its credentials and its received events
  sentiment backfill --org ORG [--batch N]
                                   compute the sentiment of items that have none (resumable;
                                   never overwrites a provided one)
  links backfill [--org ORG] [--batch N]
                                   give records stored before links existed their match keys
                                   (all organizations unless --org; resumable; never overwrites)
  sso set --org ORG --issuer URL --client-id ID --client-secret SECRET --domain DOMAIN [--default-role ROLE]
  sso set --org ORG --saml-metadata FILE --domain DOMAIN [--default-role ROLE]
                                   connect an organization to its OpenID Provider (or SAML identity
                                   provider); the domain is marked verified (owners prove theirs by
                                   DNS in the web application)
  sso show --org ORG               the organization's single sign-on (never the client secret)
  sso remove --org ORG             remove it and its domains (passwords work again for everyone)
  counts recount --org ORG         count an organization's feedback from its items and repair the
                                   kept figures (totals, contact and account figures, insights)

The database is MONGODB_URI, or the embedded one of a running "npm start".`;

/** Runs one CLI command; returns the process exit code (0 ok, 1 failure, 2 usage or invalid input). */
export async function runCli(argv: string[], out: Output = consoleOutput): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        org: { type: 'string' },
        tier: { type: 'string' },
        'read-only': { type: 'boolean' },
        'rate-limit': { type: 'string' },
        name: { type: 'string' },
        'skip-invalid': { type: 'boolean' },
        feedback: { type: 'string' },
        contacts: { type: 'string' },
        accounts: { type: 'string' },
        url: { type: 'string' },
        events: { type: 'string' },
        skip: { type: 'string' },
        take: { type: 'string' },
        batch: { type: 'string' },
        issuer: { type: 'string' },
        'client-id': { type: 'string' },
        'client-secret': { type: 'string' },
        domain: { type: 'string' },
        'default-role': { type: 'string' },
        'saml-metadata': { type: 'string' },
        kind: { type: 'string' },
        secret: { type: 'string' },
        token: { type: 'string' },
        subdomain: { type: 'string' },
        'backfill-days': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    out.info(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [command, ...rest] = positionals;
  if (values.help || !command) {
    out.info(USAGE);
    return values.help ? 0 : 2;
  }
  if (
    !['keys', 'scim', 'import', 'seed', 'webhooks', 'integrations', 'sentiment', 'links', 'counts', 'sso'].includes(
      command,
    )
  ) {
    out.info(`Unknown command "${command}".\n\n${USAGE}`);
    return 2;
  }

  let db;
  try {
    db = await openDatabases();
  } catch (error) {
    out.info((error as Error).message);
    return 1;
  }
  try {
    if (command === 'keys') {
      await keysCommand(
        rest[0],
        rest.slice(1),
        {
          org: values.org,
          tier: values.tier,
          readOnly: values['read-only'],
          rateLimit: values['rate-limit'],
          name: values.name,
        },
        db,
        out,
      );
    } else if (command === 'scim') {
      await scimCommand(rest[0], rest.slice(1), { org: values.org, name: values.name }, db, out);
    } else if (command === 'webhooks') {
      await webhooksCommand(
        rest[0],
        rest.slice(1),
        { org: values.org, url: values.url, events: values.events, skip: values.skip, take: values.take },
        db,
        out,
      );
    } else if (command === 'integrations') {
      await integrationsCommand(
        rest[0],
        rest.slice(1),
        {
          org: values.org,
          kind: values.kind,
          name: values.name,
          secret: values.secret,
          token: values.token,
          subdomain: values.subdomain,
          backfillDays: values['backfill-days'],
        },
        db,
        out,
      );
    } else if (command === 'import') {
      await importCommand(rest[0], rest[1], { org: values.org, skipInvalid: values['skip-invalid'] }, db, out);
    } else if (command === 'sentiment') {
      await sentimentCommand(rest[0], values.org, values.batch, db, out);
    } else if (command === 'links') {
      await linksCommand(rest[0], values.org, values.batch, db, out);
    } else if (command === 'sso') {
      await ssoCommand(
        rest[0],
        {
          org: values.org,
          issuer: values.issuer,
          clientId: values['client-id'],
          clientSecret: values['client-secret'],
          domain: values.domain,
          defaultRole: values['default-role'],
          samlMetadata: values['saml-metadata'],
        },
        db,
        out,
      );
    } else if (command === 'counts') {
      await countsCommand(rest[0], values.org, db, out);
    } else {
      if (!values.org) throw new UsageError('seed needs --org ORG');
      const counts = {
        feedback: parseCount('feedback', values.feedback, 1_000),
        contacts: parseCount('contacts', values.contacts, 200),
        accounts: parseCount('accounts', values.accounts, 50),
      };
      await seedOrganization(values.org, counts, db, out);
    }
    return 0;
  } catch (error) {
    out.info(error instanceof UsageError ? error.message : `Failed: ${(error as Error).message}`);
    return error instanceof UsageError ? 2 : 1;
  } finally {
    await db.close();
  }
}
