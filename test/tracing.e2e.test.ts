import { randomUUID } from 'node:crypto';
import { createContactRepository } from '@fi/contacts';
import { connectMongo } from '@fi/shared/database';
import { freePort } from '@fi/cli/embedded';
import { createKeyAt } from './helpers/keys';
import { OtlpReceiver, type ReceivedSpan } from './helpers/otlpReceiver';
import { eventually, spawnEntry, type Spawned } from './helpers/processes';
import { newOrgId } from './helpers/stack';

/**
 * Traces as an operator receives them: the gateway and two subgraphs run as their own processes, as in
 * production, and export to a real OTLP/HTTP receiver on loopback.
 */

const SERVER = 2;
const CLIENT = 3;

const mongodbUri = () => process.env.MONGODB_URI as string;

/** The JSON log lines of a process's output. */
function logLines(service: Spawned): Array<Record<string, unknown>> {
  return service
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

const isHealthy = async (url: string) => {
  try {
    return (await fetch(`${url}/health`)).ok;
  } catch {
    return false;
  }
};

describe('tracing with OTEL_EXPORTER_OTLP_ENDPOINT set', () => {
  let receiver: OtlpReceiver;
  const processes: Spawned[] = [];
  let gateway: Spawned;
  let contacts: Spawned;
  let feedback: Spawned;
  let identity: Spawned;
  let gatewayUrl: string;
  let key: string;
  const email = `ada-${randomUUID()}@example.com`;

  beforeAll(async () => {
    receiver = await OtlpReceiver.start();
    const orgId = newOrgId();
    const contactsConnection = await connectMongo(mongodbUri(), 'contacts');
    try {
      // A pro key: its count is checked in Redis before the request runs, so Redis is part of the trace.
      key = await createKeyAt(mongodbUri(), orgId);
      await createContactRepository(contactsConnection).insertMany(orgId, [
        { name: 'Ada', email, tags: [], createdAt: new Date() },
      ]);
    } finally {
      await contactsConnection.close();
    }

    const common = {
      MONGODB_URI: mongodbUri(),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      AUTH_CACHE_TTL_MS: '0',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      // Export within a tenth of a second instead of the SDK's 5 s.
      OTEL_BSP_SCHEDULE_DELAY: '100',
    };
    const [feedbackPort, contactsPort, gatewayPort, nobodyPort, identityPort] = await Promise.all([
      freePort(),
      freePort(),
      freePort(),
      freePort(),
      freePort(),
    ]);
    feedback = spawnEntry('services/feedback/src/main.ts', { ...common, PORT: String(feedbackPort) });
    contacts = spawnEntry('services/contacts/src/main.ts', { ...common, PORT: String(contactsPort) });
    identity = spawnEntry('services/identity/src/main.ts', { ...common, PORT: String(identityPort) });
    gateway = spawnEntry('gateway/src/main.ts', {
      ...common,
      PORT: String(gatewayPort),
      IDENTITY_URL: `http://127.0.0.1:${identityPort}`,
      REDIS_URL: process.env.REDIS_URL,
      RATE_LIMIT_REDIS_PREFIX: `fi-test:${randomUUID()}`,
      FEEDBACK_URL: `http://127.0.0.1:${feedbackPort}/graphql`,
      CONTACTS_URL: `http://127.0.0.1:${contactsPort}/graphql`,
      // Not part of this request; nothing listens there.
      ACCOUNTS_URL: `http://127.0.0.1:${nobodyPort}/graphql`,
    });
    processes.push(feedback, contacts, identity, gateway);
    gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
    try {
      await eventually(
        async () =>
          (await isHealthy(`http://127.0.0.1:${feedbackPort}`)) &&
          (await isHealthy(`http://127.0.0.1:${contactsPort}`)) &&
          (await isHealthy(`http://127.0.0.1:${identityPort}`)) &&
          (await isHealthy(gatewayUrl)),
        150_000,
        'the gateway, identity, feedback and contacts processes',
      );
    } catch (error) {
      throw new Error(
        `${(error as Error).message}\n${processes.map((service) => service.output().slice(-2_000)).join('\n---\n')}`,
        { cause: error },
      );
    }
  }, 180_000);

  afterAll(async () => {
    for (const service of processes) service.child.kill('SIGTERM');
    await Promise.all(processes.map((service) => service.exited));
    await receiver?.close();
  });

  test('when one request goes through two subgraphs, then its spans form one connected trace with MongoDB and Redis spans, no API key in any attribute, and its log lines carry the trace id', async () => {
    const requestId = `trace-${randomUUID()}`;
    // The key inline in the document and, as a careless client might put it, in the URL's query string.
    const response = await fetch(`${gatewayUrl}/graphql?apiKey=${key}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': requestId },
      body: JSON.stringify({
        query: `{ contactItems(apiKey: "${key}", take: 5) { total items { email totalFeedbacks } } }`,
      }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      data: { contactItems: { total: 1, items: [{ email, totalFeedbacks: 0 }] } },
      extensions: expect.anything(),
    });

    // The gateway's request line names the trace: it is written while the request's server span is active.
    let traceId = '';
    await eventually(
      () => {
        const line = logLines(gateway).find((entry) => entry.requestId === requestId && entry.msg === 'request');
        traceId = typeof line?.traceId === 'string' ? line.traceId : '';
        return traceId !== '';
      },
      20_000,
      'the gateway request log line with a traceId',
    );
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);

    const ofTrace = () => receiver.spans.filter((span) => span.traceId === traceId);
    const byId = () => new Map(ofTrace().map((span) => [span.spanId, span]));
    const serverSpan = (service: string) =>
      ofTrace().find(
        (span) => span.service === service && span.kind === SERVER && span.scope.includes('instrumentation-http'),
      );
    // Parents end after their children, so the last spans arrive a batch later: wait until the tree is whole.
    await eventually(
      () => {
        const spans = byId();
        const complete = ['gateway', 'identity', 'contacts', 'feedback'].every(
          (service) => serverSpan(service) !== undefined,
        );
        const linked = [...spans.values()].every((span) => !span.parentSpanId || spans.has(span.parentSpanId));
        return complete && linked;
      },
      30_000,
      `the spans of trace ${traceId} from the gateway, identity, contacts and feedback`,
    );

    const spans = ofTrace();
    const spanIds = byId();
    // One root: the gateway's server span; every other span's parent is a span of the same trace.
    const roots = spans.filter((span) => !span.parentSpanId);
    expect(roots.map(({ service, kind }) => ({ service, kind }))).toEqual([{ service: 'gateway', kind: SERVER }]);
    for (const span of spans) {
      if (span.parentSpanId)
        expect({ span: span.name, parentFound: spanIds.has(span.parentSpanId) }).toEqual({
          span: span.name,
          parentFound: true,
        });
    }
    // Each service's server span is the child of a gateway undici client span: traceparent crossed the pool.
    for (const service of ['identity', 'contacts', 'feedback']) {
      const parent = spanIds.get(serverSpan(service)?.parentSpanId ?? '') as ReceivedSpan;
      expect({ service, parent: { service: parent.service, kind: parent.kind, scope: parent.scope } }).toEqual({
        service,
        parent: { service: 'gateway', kind: CLIENT, scope: expect.stringContaining('instrumentation-undici') },
      });
    }
    const dbSpans = (scope: string) =>
      [...new Set(spans.filter((span) => span.scope.includes(scope)).map((span) => span.service))].sort();
    // The gateway reads no database: the identity service verified the key.
    expect(dbSpans('instrumentation-mongodb')).toEqual(['contacts', 'feedback', 'identity']);
    expect(dbSpans('instrumentation-ioredis')).toEqual(['gateway']);

    // The key reached an attribute (the URL) and was masked there; it is nowhere in what was exported.
    expect(JSON.stringify(serverSpan('gateway')?.attributes)).toContain('apiKey=fik_[REDACTED]');
    const exported = receiver.bodies.join('\n');
    expect(exported).not.toContain(key);
    expect(exported).not.toContain(key.slice('fik_'.length, 'fik_'.length + 12));
    expect(exported).not.toMatch(/fik_[A-Za-z0-9_-]{8,}/);

    // Every log line of this request, in each process, carries the same trace id.
    for (const service of [gateway, contacts, feedback]) {
      const lines = logLines(service).filter((entry) => entry.requestId === requestId);
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) expect({ msg: line.msg, traceId: line.traceId }).toEqual({ msg: line.msg, traceId });
    }
  }, 120_000);
});

describe('tracing without OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  test('when the variable is unset, then the OpenTelemetry SDK is not even loaded and log lines have no trace id', async () => {
    const probe = spawnEntry('test/helpers/telemetryProbe.ts', { OTEL_EXPORTER_OTLP_ENDPOINT: '' });
    expect(await probe.exited).toBe(0);
    expect(JSON.parse(probe.output().trim().split('\n').pop() ?? '{}')).toEqual({
      sdkLoaded: false,
      logLine: expect.not.objectContaining({ traceId: expect.anything() }),
    });
  });
});
