import { connectMongo } from '@fi/shared/database';
import {
  LeaseStore,
  PullSync,
  PullWorker,
  SyncStateStore,
  zendeskConnector,
  type PullConnection,
} from '../../services/integrations/src/pull';
import { PulledRecords } from './pulledRecords';

/**
 * The pull worker as a process of its own, for the test that kills it with SIGKILL midway: it syncs the
 * connections of PULL_CONNECTIONS (JSON) from the Zendesk-speaking server at ZENDESK_BASE_URL into
 * PulledRecords, in MONGODB_URI's database PULL_DB.
 */
async function main(): Promise<void> {
  const db = await connectMongo(process.env.MONGODB_URI as string, process.env.PULL_DB as string);
  const connections = JSON.parse(process.env.PULL_CONNECTIONS as string) as PullConnection[];
  const sync = new PullSync(
    new LeaseStore(db),
    new SyncStateStore(db),
    {
      zendesk: zendeskConnector({
        baseUrl: process.env.ZENDESK_BASE_URL as string,
        pageSize: Number(process.env.PAGE_SIZE),
        timeoutMs: 10_000,
      }),
    },
    new PulledRecords(db),
    { leaseMs: Number(process.env.LEASE_MS), intervalMs: 60_000, failureBackoffMs: 1_000 },
  );
  const worker = new PullWorker(
    sync,
    { active: async () => connections },
    { pollMs: 100, concurrency: 2 },
    (error) => process.stderr.write(`pull: ${(error as Error).message}\n`),
    (connection, outcome) => process.stdout.write(`${connection.id} ${outcome}\n`),
  );
  worker.start();
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack}\n`);
  process.exit(1);
});
