import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { parse } from 'yaml';
import { stackConfigSchema } from '@fi/cli';
import { compiledEntry } from './helpers/processes';
import {
  APP_SERVICES,
  environmentProblems,
  fieldByEnv,
  SUBGRAPHS,
  WITH_DATABASE,
  type Schema,
} from './helpers/deployment';

/**
 * What can be checked of the deployment files without a Docker engine: that they parse, agree with
 * each other, and agree with the services' config schemas, entry points and metric names.
 */

const root = path.resolve(__dirname, '..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

interface ComposeService {
  image?: string;
  build?: string | { context?: string; dockerfile?: string };
  command?: string | string[];
  environment?: Record<string, string | number | boolean | null> | string[];
  ports?: Array<string | number | { target?: number; published?: number | string }>;
  depends_on?: string[] | Record<string, { condition?: string }>;
  healthcheck?: { test?: string | string[] };
  profiles?: string[];
  volumes?: Array<string | { type?: string; source?: string; target?: string }>;
}
interface ComposeFile {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

const compose = parse(read('docker-compose.yml')) as ComposeFile;
const service = (name: string): ComposeService => {
  const found = compose.services[name];
  if (!found) throw new Error(`docker-compose.yml has no service ${name}`);
  return found;
};

/** A service's environment as written in the file. */
function rawEnvironmentOf(name: string): Record<string, string> {
  const env = service(name).environment ?? {};
  if (Array.isArray(env)) {
    return Object.fromEntries(env.map((entry) => [entry.split('=')[0], entry.slice(entry.indexOf('=') + 1)]));
  }
  return Object.fromEntries(Object.entries(env).map(([key, value]) => [key, value === null ? '' : String(value)]));
}

/** Secrets compose refuses to start without (`${VAR:?message}`): the operator sets them in the shell. */
const OPERATOR_SECRETS: Record<string, string> = {
  WEBHOOK_SECRET_KEY: '5e'.repeat(32),
  INTEGRATIONS_SECRET_KEY: '6f'.repeat(32),
  IDENTITY_SIGNING_KEYS: `k1:${'5e'.repeat(32)}`,
};

/**
 * A service's environment as compose hands it over when the shell sets none of the `${VAR:-default}` it
 * names, and only the required `${VAR:?message}` secrets.
 */
function environmentOf(name: string): Record<string, string> {
  const interpolate = (_: string, variable: string, fallback?: string, required?: string) =>
    required !== undefined ? (OPERATOR_SECRETS[variable] ?? '') : (fallback ?? '');
  return Object.fromEntries(
    Object.entries(rawEnvironmentOf(name)).map(([key, value]) => [
      key,
      value.replace(/\$\{(\w+)(?::?-([^}]*)|:\?([^}]*))?\}/g, interpolate),
    ]),
  );
}

/** The metric names a PromQL expression reads (functions, keywords, labels and ranges removed). */
function metricNames(expr: string): string[] {
  const keywords = new Set(['and', 'or', 'unless', 'bool', 'offset', 'inf', 'nan']);
  const stripped = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, '');
  const names: string[] = [];
  for (const match of stripped.matchAll(/(?<![\w.$])[a-zA-Z_:][\w:]*/g)) {
    const rest = stripped.slice((match.index ?? 0) + match[0].length).trimStart();
    if (rest.startsWith('(') || keywords.has(match[0].toLowerCase())) continue;
    names.push(match[0]);
  }
  return names;
}

/** Where the image holds the built web application (the gateway's DASHBOARD_DIR in compose and the manifests). */
const IMAGE_DASHBOARD_DIR = '/app/dashboard/dist';

describe('docker-compose.yml', () => {
  test('when the file is parsed, then it has mongo, redis, the three subgraphs and the gateway', () => {
    expect(Object.keys(compose.services).sort()).toEqual(
      expect.arrayContaining(['mongo', 'redis', 'feedback', 'contacts', 'accounts', 'gateway']),
    );
    expect(service('mongo').image).toMatch(/^mongo:7\b/);
    expect(service('redis').image).toMatch(/^redis:7\b/);
  });

  test.each(Object.keys(APP_SERVICES))(
    'when %s is built and started, then its build context has the Dockerfile and its command runs its own entry file',
    (name) => {
      const { build, command } = service(name);
      const context = typeof build === 'string' ? build : build?.context;
      expect(context).toBeDefined();
      const dockerfile = typeof build === 'object' && build.dockerfile ? build.dockerfile : 'Dockerfile';
      expect(statSync(path.join(root, context as string)).isDirectory()).toBe(true);
      expect(existsSync(path.join(root, context as string, dockerfile))).toBe(true);

      const args = typeof command === 'string' ? command.split(/\s+/) : command;
      expect(args).toEqual(['node', compiledEntry(APP_SERVICES[name].entry)]);
      expect(existsSync(path.join(root, APP_SERVICES[name].entry))).toBe(true);
    },
  );

  test.each(Object.keys(APP_SERVICES))(
    'when %s starts, then its PORT is the default port of its config schema',
    (name) => {
      const port = fieldByEnv(APP_SERVICES[name].schema, 'PORT');
      expect(port?.default).toEqual(expect.any(Number));
      expect(Number(environmentOf(name).PORT)).toBe(port?.default);
    },
  );

  test.each(Object.keys(APP_SERVICES))(
    'when %s reads its environment, then every variable is one its config schema knows and the service accepts them all',
    (name) => {
      const env = environmentOf(name);
      expect(environmentProblems(APP_SERVICES[name].schema, env)).toEqual({ unknown: [], refused: [] });
      expect(environmentProblems(APP_SERVICES[name].schema, {})).not.toEqual({ unknown: [], refused: [] });
      expect(env.HOST).toBe('0.0.0.0');
    },
  );

  test('when the identity signing keys are not set, then compose refuses to start the gateway and the subgraphs', () => {
    for (const name of ['gateway', ...SUBGRAPHS])
      expect(rawEnvironmentOf(name).IDENTITY_SIGNING_KEYS).toMatch(/^\$\{IDENTITY_SIGNING_KEYS:\?.+\}$/);
    expect(rawEnvironmentOf('identity').IDENTITY_SIGNING_KEYS).toBeUndefined();
  });

  test('when the webhook secret key is not set, then compose refuses to start the feedback service', () => {
    expect(rawEnvironmentOf('feedback').WEBHOOK_SECRET_KEY).toMatch(/^\$\{WEBHOOK_SECRET_KEY:\?.+\}$/);
    expect(rawEnvironmentOf('feedback').WEBHOOK_ALLOW_HTTP).toBeUndefined();
    expect(rawEnvironmentOf('feedback').WEBHOOK_PRIVATE_TARGETS).toBeUndefined();
  });

  test('when the app services connect to MongoDB, then they use the compose mongo service and its replica set', () => {
    const replSet = (service('mongo').command as string[])[
      (service('mongo').command as string[]).indexOf('--replSet') + 1
    ];
    expect(replSet).toBeTruthy();
    expect(JSON.stringify(service('mongo').healthcheck?.test)).toContain(`_id:'${replSet}'`);
    for (const name of WITH_DATABASE) {
      const uri = new URL(environmentOf(name).MONGODB_URI);
      expect(uri.hostname).toBe('mongo');
      expect(uri.searchParams.get('replicaSet')).toBe(replSet);
    }
  });

  test('when the gateway calls its subgraphs, the identity service and Redis, then each URL names a compose service on the port it listens on', () => {
    const env = environmentOf('gateway');
    for (const name of SUBGRAPHS) {
      expect(env[`${name.toUpperCase()}_URL`]).toBe(`http://${name}:${environmentOf(name).PORT}/graphql`);
    }
    expect(env.IDENTITY_URL).toBe(`http://identity:${environmentOf('identity').PORT}`);
    expect(env.DASHBOARD_DIR).toBe(IMAGE_DASHBOARD_DIR);
    expect(env.MONGODB_URI).toBeUndefined();
    const redis = new URL(env.REDIS_URL);
    expect(redis.protocol).toBe('redis:');
    expect(redis.hostname).toBe('redis');
  });

  test('when a service depends on another, then it waits for it to be healthy and the other has a healthcheck', () => {
    expect(Object.keys(service('gateway').depends_on ?? {}).sort()).toEqual([
      'accounts',
      'contacts',
      'feedback',
      'identity',
      'integrations',
      'redis',
    ]);
    for (const name of WITH_DATABASE) expect(Object.keys(service(name).depends_on ?? {})).toContain('mongo');
    for (const [name, { depends_on: dependsOn }] of Object.entries(compose.services)) {
      if (!dependsOn) continue;
      expect({ name, isMapping: !Array.isArray(dependsOn) }).toEqual({ name, isMapping: true });
      for (const [dependency, { condition }] of Object.entries(dependsOn as Record<string, { condition?: string }>)) {
        expect({ name, dependency, condition }).toEqual({ name, dependency, condition: 'service_healthy' });
        expect(service(dependency).healthcheck?.test).toBeDefined();
      }
    }
  });

  test('when every service runs, then each has a healthcheck and the app services check GET /health', () => {
    for (const [name, { healthcheck }] of Object.entries(compose.services)) {
      expect({ name, test: healthcheck?.test }).toEqual({ name, test: expect.anything() });
    }
    for (const name of Object.keys(APP_SERVICES))
      expect(JSON.stringify(service(name).healthcheck?.test)).toContain('/health');
  });

  test('when the stack is up, then only the gateway (4000) and the integrations receiver (4007) publish a port; optional tools publish on loopback only', () => {
    const published = Object.entries(compose.services).filter(([, { ports }]) => ports && ports.length > 0);
    expect(published.filter(([, { profiles }]) => !profiles).map(([name]) => name)).toEqual([
      'integrations-receiver',
      'gateway',
    ]);
    expect(service('gateway').ports?.map(String)).toEqual(['4000:4000']);
    expect(service('integrations-receiver').ports?.map(String)).toEqual(['4007:4007']);
    for (const [name, { ports, profiles }] of published.filter(([, { profiles }]) => profiles)) {
      expect({ name, profiles, ports: ports?.map(String) }).toEqual({
        name,
        profiles,
        ports: ports?.map(() => expect.stringMatching(/^127\.0\.0\.1:/)),
      });
    }
  });

  test('when tracing is wanted, then every app service takes OTEL_EXPORTER_OTLP_ENDPOINT from the shell and the tracing profile has Jaeger', () => {
    for (const name of Object.keys(APP_SERVICES)) {
      expect({ name, endpoint: rawEnvironmentOf(name).OTEL_EXPORTER_OTLP_ENDPOINT }).toEqual({
        name,
        endpoint: '${OTEL_EXPORTER_OTLP_ENDPOINT:-}',
      });
      expect(service(name).profiles).toBeUndefined();
    }
    expect(service('jaeger').profiles).toEqual(['tracing']);
    expect(service('jaeger').image).toMatch(/^jaegertracing\/jaeger:2\./);
    // The endpoint the deployment guide and the file's header tell an operator to set.
    expect(read('docker-compose.yml')).toContain('OTEL_EXPORTER_OTLP_ENDPOINT=http://jaeger:4318');
    expect(read('docs/deployment.md')).toContain('OTEL_EXPORTER_OTLP_ENDPOINT=http://jaeger:4318');
  });

  test('when mongo and redis restart, then their data lives in named volumes declared in the file', () => {
    const declared = Object.keys(compose.volumes ?? {});
    const mounts = (name: string) =>
      (service(name).volumes ?? []).map((volume) =>
        typeof volume === 'string' ? { source: volume.split(':')[0], target: volume.split(':')[1] } : volume,
      );
    expect(mounts('mongo')).toContainEqual(expect.objectContaining({ target: '/data/db' }));
    expect(mounts('redis')).toContainEqual(expect.objectContaining({ target: '/data' }));
    for (const name of ['mongo', 'redis']) {
      for (const { source } of mounts(name)) expect(declared).toContain(source);
    }
  });
});

describe('Dockerfile', () => {
  // Continuation lines joined, comments dropped: one instruction per entry.
  const instructions = read('Dockerfile')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  const named = (keyword: string) => instructions.filter((line) => line.toUpperCase().startsWith(`${keyword} `));

  test('when it is read, then it has at least two stages, all on the Node that CI runs (node:20-bookworm-slim)', () => {
    const froms = named('FROM');
    expect(froms.length).toBeGreaterThanOrEqual(2);
    // Each stage starts from the base image or from a stage named before it.
    const stages: string[] = [];
    for (const from of froms) {
      const [, image, , name] = from.split(/\s+/);
      expect({ from, base: stages.includes(image) ? 'an earlier stage' : image }).toEqual({
        from,
        base: stages.includes(image) ? 'an earlier stage' : 'node:20-bookworm-slim',
      });
      if (name) stages.push(name);
    }
    expect(process.versions.node.split('.')[0]).toBe('20');
  });

  test('when the image runs, then its user is not root and it has a HEALTHCHECK on /health', () => {
    const users = named('USER');
    expect(users.length).toBeGreaterThan(0);
    const user = users[users.length - 1].split(/\s+/)[1].split(':')[0];
    expect(['root', '0']).not.toContain(user);
    expect(named('HEALTHCHECK').join('\n')).toContain('/health');
    expect(instructions.join('\n')).toMatch(/NODE_ENV=production/);
    expect(instructions.join('\n')).toMatch(/HOST=0\.0\.0\.0/);
  });

  test('when dependencies are installed, then every workspace package.json is copied first and npm ci omits dev', () => {
    const workspaces = (JSON.parse(read('package.json')) as { workspaces: string[] }).workspaces;
    const install = instructions.findIndex((line) => /^RUN .*npm ci .*--omit=dev/.test(line));
    expect(install).toBeGreaterThan(0);
    const before = instructions.slice(0, install).join('\n');
    expect(before).toMatch(/COPY package\.json package-lock\.json/);
    for (const workspace of workspaces) expect(before).toContain(`COPY ${workspace}/package.json`);
  });

  test('when sources are copied, then every COPY source exists and .dockerignore does not exclude it', () => {
    const ignored = new Set(
      read('.dockerignore')
        .split('\n')
        .map((line) => line.trim()),
    );
    const sources = named('COPY')
      .filter((line) => !/--from=/.test(line))
      .flatMap((line) =>
        line
          .split(/\s+/)
          .slice(1, -1)
          .filter((arg) => !arg.startsWith('--')),
      );
    expect(sources).toEqual(expect.arrayContaining(['supergraph.graphql', 'shared/', 'services/', 'gateway/']));
    for (const source of sources) {
      expect({ source, exists: existsSync(path.join(root, source)) }).toEqual({ source, exists: true });
      expect({ source, ignored: ignored.has(source.replace(/\/$/, '')) }).toEqual({ source, ignored: false });
    }
  });

  test('when no command is given, then the image runs the compiled gateway, resolving workspaces to their compiled output', () => {
    const cmd = named('CMD');
    expect(cmd).toHaveLength(1);
    expect(JSON.parse(cmd[0].slice('CMD '.length))).toEqual(['node', compiledEntry(APP_SERVICES.gateway.entry)]);
    expect(instructions.join('\n')).toMatch(/NODE_OPTIONS=--conditions=production/);
  });

  test('when the gateway serves the web application, then the image holds the built page where compose and the manifests point', () => {
    const workdirs = named('WORKDIR').map((line) => line.split(/\s+/)[1]);
    expect(new Set(workdirs)).toEqual(new Set(['/app']));
    expect(instructions).toContain(
      `COPY --from=build /app/dashboard/dist ${path.relative('/app', IMAGE_DASHBOARD_DIR)}`,
    );
  });

  test('when the runtime stage is assembled, then it holds the compiled dist/ from the build stage and no TypeScript runner', () => {
    const build = instructions.findIndex((line) => /^RUN npm run build$/.test(line));
    expect(build).toBeGreaterThan(0);
    const workspaces = (JSON.parse(read('package.json')) as { workspaces: string[] }).workspaces;
    const copied = named('COPY')
      .filter((line) => /--from=build/.test(line))
      .map((line) => line.split(/\s+/).slice(-1)[0]);
    expect([...copied].sort()).toEqual(workspaces.map((workspace) => `${workspace}/dist`).sort());
    // Production dependencies only: tsx (and the esbuild it brings) stays a development tool.
    expect(
      Object.keys((JSON.parse(read('package.json')) as { dependencies?: object }).dependencies ?? {}),
    ).not.toContain('tsx');
  });
});

describe('ops/prometheus.yml', () => {
  test('when Prometheus scrapes, then it targets /metrics of the gateway and every subgraph at their compose ports', () => {
    const config = parse(read('ops/prometheus.yml')) as {
      scrape_configs: Array<{ metrics_path?: string; static_configs: Array<{ targets: string[] }> }>;
    };
    for (const job of config.scrape_configs) expect(job.metrics_path ?? '/metrics').toBe('/metrics');
    const targets = config.scrape_configs.flatMap((job) => job.static_configs.flatMap((group) => group.targets));
    const expected = Object.keys(APP_SERVICES).map((name) => `${name}:${environmentOf(name).PORT}`);
    expect([...targets].sort()).toEqual([...expected].sort());
  });
});

const COUNTERS_AND_GAUGES = [
  'fi_gateway_requests_total',
  'fi_gateway_subgraph_errors_total',
  'fi_gateway_rate_limited_total',
  'fi_gateway_auth_failures_total',
  'fi_gateway_rate_limiter_insurance_mode',
  'fi_gateway_supergraph_reloads_total',
  'fi_mongo_pool_connections',
  'fi_webhook_deliveries_total',
  'fi_webhook_queue_depth',
  'fi_webhook_oldest_pending_age_seconds',
];
const HISTOGRAMS = [
  'fi_gateway_request_duration_seconds',
  'fi_gateway_subgraph_fetch_duration_seconds',
  'fi_subgraph_request_duration_seconds',
];
const CONTRACT_METRICS = new Set([...COUNTERS_AND_GAUGES, ...HISTOGRAMS]);

describe('ops/grafana/gateway-dashboard.json', () => {
  const DEFAULT_METRICS_USED = ['process_resident_memory_bytes', 'nodejs_eventloop_lag_seconds'];

  interface Panel {
    type: string;
    title?: string;
    datasource?: { type?: string; uid?: string };
    gridPos?: { x: number; y: number; w: number; h: number };
    targets?: Array<{ expr?: string; query?: string; queryType?: string; datasource?: { uid?: string } }>;
    panels?: Panel[];
  }
  const dashboard = JSON.parse(read('ops/grafana/gateway-dashboard.json')) as {
    __inputs: Array<{ name: string; type: string; pluginId: string }>;
    panels: Panel[];
    templating: { list: Array<{ name: string; type: string }> };
  };
  const panels = dashboard.panels.flatMap((panel) => [panel, ...(panel.panels ?? [])]);
  const TRACES = '${DS_TRACES}';
  const tracePanels = panels.filter((panel) => panel.datasource?.uid === TRACES);
  const queryPanels = panels.filter((panel) => panel.type !== 'row' && !tracePanels.includes(panel));
  const exprs = queryPanels.flatMap((panel) => (panel.targets ?? []).map((target) => target.expr ?? ''));
  const used = new Set(exprs.flatMap(metricNames));

  /** prom-client's own default metrics, histograms with their series suffixes. */
  async function defaultMetricNames(): Promise<Set<string>> {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });
    const metrics = await registry.getMetricsAsJSON();
    return new Set(
      metrics.flatMap(({ name, type }) =>
        String(type) === 'histogram' ? [`${name}_bucket`, `${name}_sum`, `${name}_count`] : [name],
      ),
    );
  }

  test('when it is imported, then the Prometheus data source is the DS_PROMETHEUS input of every query', () => {
    expect(dashboard.__inputs).toContainEqual(
      expect.objectContaining({ name: 'DS_PROMETHEUS', type: 'datasource', pluginId: 'prometheus' }),
    );
    expect(queryPanels.length).toBeGreaterThanOrEqual(10);
    for (const panel of queryPanels) {
      expect({ title: panel.title, uid: panel.datasource?.uid }).toEqual({
        title: panel.title,
        uid: '${DS_PROMETHEUS}',
      });
      expect(panel.targets?.length).toBeGreaterThan(0);
      for (const target of panel.targets ?? [])
        expect(target.datasource?.uid ?? '${DS_PROMETHEUS}').toBe('${DS_PROMETHEUS}');
    }
  });

  test('when queries run, then every metric they read is a fi_ metric of the contract or a default process metric', async () => {
    const defaults = await defaultMetricNames();
    for (const name of DEFAULT_METRICS_USED) expect(defaults).toContain(name);
    const allowed = new Set([
      ...COUNTERS_AND_GAUGES,
      ...HISTOGRAMS.flatMap((name) => [`${name}_bucket`, `${name}_sum`, `${name}_count`]),
      ...defaults,
    ]);
    expect(used.size).toBeGreaterThan(0);
    for (const name of used) {
      expect(name).toMatch(/^(fi_|process_|nodejs_)/);
      expect({ name, allowed: allowed.has(name) }).toEqual({ name, allowed: true });
    }
  });

  test('when the dashboard is read, then every contract metric has a panel and latencies use histogram_quantile', () => {
    for (const name of [...COUNTERS_AND_GAUGES, ...DEFAULT_METRICS_USED]) expect(used).toContain(name);
    for (const name of HISTOGRAMS) {
      expect(used).toContain(`${name}_bucket`);
      expect(exprs.some((expr) => expr.includes('histogram_quantile(') && expr.includes(`${name}_bucket`))).toBe(true);
    }
    for (const quantile of ['0.5', '0.95', '0.99']) {
      expect(
        exprs.some(
          (expr) =>
            expr.startsWith(`histogram_quantile(${quantile}, `) &&
            expr.includes('fi_gateway_request_duration_seconds_bucket'),
        ),
      ).toBe(true);
    }
  });

  test('when traces are looked up, then the trace panels read the DS_TRACES input: a search of slow gateway traces and one trace by the traceId variable', () => {
    expect(dashboard.__inputs).toContainEqual(
      expect.objectContaining({ name: 'DS_TRACES', type: 'datasource', pluginId: 'jaeger' }),
    );
    const targets = tracePanels.flatMap((panel) =>
      (panel.targets ?? []).map((target) => ({ panel: panel.type, ...target })),
    );
    for (const target of targets) expect(target.datasource?.uid ?? TRACES).toBe(TRACES);
    expect(targets).toContainEqual(
      expect.objectContaining({ panel: 'table', queryType: 'search', service: 'gateway' }),
    );
    expect(targets).toContainEqual(expect.objectContaining({ panel: 'traces', query: '${traceId}' }));
    expect(dashboard.templating.list).toContainEqual(expect.objectContaining({ name: 'traceId', type: 'textbox' }));
  });

  test('when it is laid out, then every panel fits in the 24-column grid', () => {
    for (const { title, gridPos } of panels) {
      expect({ title, fits: !!gridPos && gridPos.x >= 0 && gridPos.w > 0 && gridPos.x + gridPos.w <= 24 }).toEqual({
        title,
        fits: true,
      });
    }
  });
});

describe('the documentation', () => {
  test('when an operator looks up a setting, then every variable of every config schema is documented', () => {
    const readme = read('docs/operations.md');
    const schemas: Schema[] = [...Object.values(APP_SERVICES).map(({ schema }) => schema), stackConfigSchema];
    const missing = schemas
      .flatMap((schema) => Object.values(schema).map((field) => field.env))
      .filter((env) => !readme.includes(`\`${env}\``));
    expect(missing).toEqual([]);
  });

  test('when the metrics are looked up, then every metric of the dashboard contract is documented', () => {
    const readme = read('docs/operations.md');
    const names = [...CONTRACT_METRICS].filter((name) => !readme.includes(`\`${name}\``));
    expect(names).toEqual([]);
  });
});

describe('metricNames', () => {
  test('when an expression has functions, labels, ranges and by-clauses, then only the metric names remain', () => {
    expect(
      metricNames(
        'histogram_quantile(0.95, sum by (le, code) (rate(a_bucket{code!="OK"}[$__rate_interval]))) / sum(b_total) or vector(0)',
      ),
    ).toEqual(['a_bucket', 'b_total']);
  });
});
