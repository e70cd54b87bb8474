import { loadFeedbackConfig, startFeedbackService } from '@fi/feedback';
import { createLogger, type RunningSubgraph } from '@fi/shared';
import { createKeyAt, signedIdentityFor } from './helpers/keys';
import { PrivateDatabase } from './helpers/privateDatabase';
import { eventually } from './helpers/processes';

/**
 * SERVICE_UNAVAILABLE is the database's fault, QUERY_TIMEOUT the request's: a database that stops
 * answering is reported as unavailable within MONGODB_TIMEOUT_MS, not as a query that asked too much.
 */

const TIMEOUT_MS = 2_000;
const LIST = '{ feedbackItems(apiKey: "KEY") { total } }';

async function list(url: string, key: string) {
  const started = performance.now();
  const response = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...signedIdentityFor(key) },
    body: JSON.stringify({ query: LIST.replace('KEY', key) }),
  });
  const body = (await response.json()) as { data?: unknown; errors?: Array<{ message: string; extensions: { code: string } }> };
  return { body, ms: performance.now() - started };
}

describe('the database freezes', () => {
  let database: PrivateDatabase;
  let service: RunningSubgraph;
  beforeAll(async () => {
    database = await PrivateDatabase.start();
    service = await startFeedbackService(
      loadFeedbackConfig({
        MONGODB_URI: database.uri,
        PORT: '0',
        MONGODB_TIMEOUT_MS: String(TIMEOUT_MS),
        MONGODB_MAX_TIME_MS: '8000',
        WEBHOOK_SECRET_KEY: process.env.WEBHOOK_SECRET_KEY,
        IDENTITY_SIGNING_KEYS: process.env.IDENTITY_SIGNING_KEYS,
      }),
      createLogger('feedback', 'silent'),
    );
  });
  afterAll(async () => {
    database.process.kill('SIGCONT');
    await service?.close(1_000);
    await database.destroy();
  });

  test('when it stops answering, then requests get SERVICE_UNAVAILABLE well before MONGODB_MAX_TIME_MS; when it answers again, all recovers', async () => {
    const key = await createKeyAt(database.uri);
    expect((await list(service.url, key)).body.errors).toBeUndefined();

    database.process.kill('SIGSTOP');
    try {
      const frozen = await list(service.url, key);
      expect(frozen.body.errors?.[0]).toMatchObject({ message: 'Service temporarily unavailable; retry shortly', extensions: { code: 'SERVICE_UNAVAILABLE' } });
      // Noticed within MONGODB_TIMEOUT_MS (plus the machine's slack), far from the 8 s a stopped query would take.
      expect(frozen.ms).toBeLessThan(TIMEOUT_MS + 3_000);
    } finally {
      database.process.kill('SIGCONT');
    }
    await eventually(async () => (await list(service.url, key)).body.errors === undefined, 30_000, 'the service to read again');
  });
});
