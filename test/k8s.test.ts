import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { ensureKustomize, kustomizeBuild } from '../scripts/kustomize';
import { compiledEntry } from './helpers/processes';
import {
  APP_SERVICES,
  environmentProblems,
  fieldByEnv,
  PUBLIC_RECEIVERS,
  SUBGRAPHS,
  WITH_DATABASE,
} from './helpers/deployment';
import {
  reachability,
  selects,
  type LabelSelector,
  type Labels,
  type NetworkPolicy,
  type Pod,
} from './helpers/networkPolicies';

/**
 * What can be checked of the Kubernetes manifests without a cluster: the base and the production overlay
 * are rendered with kustomize, then compared with the services' config schemas, the secrets that
 * deploy/k8s/create-secrets.sh makes, docker-compose.yml, and the intended network paths.
 */

const root = path.resolve(__dirname, '..');
const NAMESPACE = 'feedback-intelligence';

interface Container {
  name: string;
  image: string;
  command?: string[];
  args?: string[];
  ports?: Array<{ name?: string; containerPort: number; protocol?: string }>;
  env?: Array<{
    name: string;
    value?: string;
    valueFrom?: { secretKeyRef?: { name: string; key: string } } & Record<string, unknown>;
  }>;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  startupProbe?: Probe;
}
interface Probe {
  httpGet?: { path: string; port: number | string };
  exec?: { command: string[] };
}
interface PodSpec {
  containers: Container[];
  initContainers?: Container[];
  volumes?: Array<{
    name: string;
    secret?: { secretName: string; items?: Array<{ key: string }> };
    configMap?: { name: string };
  }>;
}
interface Resource {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Labels };
  spec?: Record<string, unknown>;
  data?: Record<string, string>;
}
interface Workload extends Resource {
  spec: { replicas?: number; selector: LabelSelector; template: { metadata: { labels: Labels }; spec: PodSpec } };
}
interface Service extends Resource {
  spec: {
    selector: Labels;
    clusterIP?: string;
    type?: string;
    externalIPs?: string[];
    ports: Array<{ name?: string; port: number; targetPort?: number | string; nodePort?: number }>;
  };
}
interface Hpa extends Resource {
  spec: {
    scaleTargetRef: { apiVersion: string; kind: string; name: string };
    minReplicas: number;
    maxReplicas: number;
  };
}
interface Pdb extends Resource {
  spec: { selector: LabelSelector; maxUnavailable?: number; minAvailable?: number };
}

const RENDERINGS = { base: 'deploy/k8s/base', production: 'deploy/k8s/overlays/production' };
type RenderingName = keyof typeof RENDERINGS;
const rendered: Partial<Record<RenderingName, Resource[]>> = {};

beforeAll(async () => {
  const binary = await ensureKustomize((message) => console.log(message));
  for (const [name, dir] of Object.entries(RENDERINGS)) {
    const output = await kustomizeBuild(binary, path.join(root, dir));
    rendered[name as RenderingName] = parseAllDocuments(output).map((document) => document.toJS() as Resource);
  }
}, 20 * 60_000);

/** The secrets create-secrets.sh prints, by name: key -> value. */
const secrets: Record<string, { namespace: string; data: Record<string, string> }> = Object.fromEntries(
  parseAllDocuments(execFileSync('bash', [path.join(root, 'deploy/k8s/create-secrets.sh')], { encoding: 'utf8' }))
    .map(
      (document) =>
        document.toJS() as {
          kind: string;
          metadata: { name: string; namespace: string };
          stringData: Record<string, string>;
        },
    )
    .map((secret) => [secret.metadata.name, { namespace: secret.metadata.namespace, data: secret.stringData }]),
);

const compose = parse(readFileSync(path.join(root, 'docker-compose.yml'), 'utf8')) as {
  services: Record<string, { image?: string }>;
};

function resources(name: RenderingName): Resource[] {
  const found = rendered[name];
  if (!found) throw new Error(`${name} was not rendered`);
  return found;
}
const ofKind = <T extends Resource>(name: RenderingName, kind: string) =>
  resources(name).filter((r) => r.kind === kind) as T[];
const workloads = (name: RenderingName) => [
  ...ofKind<Workload>(name, 'Deployment'),
  ...ofKind<Workload>(name, 'StatefulSet'),
  ...ofKind<Workload>(name, 'Job'),
];
function named<T extends Resource>(name: RenderingName, kind: string, resourceName: string): T {
  const found = ofKind<T>(name, kind).find((r) => r.metadata.name === resourceName);
  if (!found) throw new Error(`${name} has no ${kind} ${resourceName}`);
  return found;
}
const mainContainer = (workload: Workload) => workload.spec.template.spec.containers[0];
const allContainers = (workload: Workload) => [
  ...(workload.spec.template.spec.initContainers ?? []),
  ...workload.spec.template.spec.containers,
];

/** A container's environment as the process sees it, secret references resolved through the created secrets. */
function environment(container: Container): Record<string, string> {
  return Object.fromEntries(
    (container.env ?? []).map(({ name, value, valueFrom }) => {
      if (valueFrom) {
        const ref = valueFrom.secretKeyRef;
        if (!ref) throw new Error(`${container.name}: ${name} comes from something other than a secret`);
        const secretValue = secrets[ref.name]?.data[ref.key];
        if (secretValue === undefined)
          throw new Error(
            `${container.name}: ${name} refers to secret ${ref.name} key ${ref.key}, which create-secrets.sh does not make`,
          );
        return [name, secretValue];
      }
      return [name, value ?? ''];
    }),
  );
}

/** The pods (one per workload) that back a Service or are selected by a PDB. */
const podsSelectedBy = (name: RenderingName, selector: LabelSelector) =>
  workloads(name).filter(
    (workload) => workload.kind !== 'Job' && selects(selector, workload.spec.template.metadata.labels),
  );

function containerPort(workload: Workload, port: number | string): number | undefined {
  const ports = mainContainer(workload).ports ?? [];
  return ports.find((p) => (typeof port === 'number' ? p.containerPort === port : p.name === port))?.containerPort;
}

/** Kubernetes quantities as numbers (cores, bytes), enough to compare requests with limits. */
function quantity(raw: string): number {
  const match = /^(\d+(?:\.\d+)?)(m|Ki|Mi|Gi|Ti)?$/.exec(String(raw));
  if (!match) throw new Error(`unreadable quantity ${raw}`);
  const factor = { m: 1e-3, Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40 }[match[2] ?? ''] ?? 1;
  return Number(match[1]) * factor;
}

describe.each(Object.keys(RENDERINGS) as RenderingName[])('deploy/k8s rendered as %s', (rendering) => {
  test('when it is rendered, then every namespaced resource is in the namespace the secrets are created in', () => {
    for (const resource of resources(rendering).filter((r) => r.kind !== 'Namespace')) {
      expect({
        resource: `${resource.kind}/${resource.metadata.name}`,
        namespace: resource.metadata.namespace,
      }).toEqual({
        resource: `${resource.kind}/${resource.metadata.name}`,
        namespace: NAMESPACE,
      });
    }
    for (const [name, { namespace }] of Object.entries(secrets))
      expect({ name, namespace }).toEqual({ name, namespace: NAMESPACE });
  });

  test.each(Object.keys(APP_SERVICES))(
    'when %s runs, then it is the one image with its own entry file, on the port of its config schema',
    (name) => {
      const images = Object.keys(APP_SERVICES).map(
        (service) => mainContainer(named<Workload>(rendering, 'Deployment', service)).image,
      );
      expect(new Set(images).size).toBe(1);
      expect(images[0]).toMatch(/(^|\/)feedback-intelligence:[\w.-]+$/);

      const deployment = named<Workload>(rendering, 'Deployment', name);
      expect(deployment.spec.template.spec.containers).toHaveLength(1);
      const container = mainContainer(deployment);
      expect(container.command).toEqual(['node', compiledEntry(APP_SERVICES[name].entry)]);
      expect(existsSync(path.join(root, APP_SERVICES[name].entry))).toBe(true);
      const port = fieldByEnv(APP_SERVICES[name].schema, 'PORT')?.default;
      expect(container.ports).toEqual([{ name: 'http', containerPort: port }]);
      expect(environment(container).PORT).toBe(String(port));
      expect(environment(container).HOST).toBe('0.0.0.0');
    },
  );

  test.each(Object.keys(APP_SERVICES))(
    'when %s reads its environment, then every variable is one its schema knows, secrets resolve, and the service accepts them',
    (name) => {
      const env = environment(mainContainer(named<Workload>(rendering, 'Deployment', name)));
      expect(environmentProblems(APP_SERVICES[name].schema, env)).toEqual({ unknown: [], refused: [] });
    },
  );

  test('when MongoDB and Redis are used, then the images are the ones of docker-compose.yml', () => {
    expect(mainContainer(named<Workload>(rendering, 'StatefulSet', 'mongo')).image).toBe(compose.services.mongo.image);
    expect(mainContainer(named<Workload>(rendering, 'StatefulSet', 'redis')).image).toBe(compose.services.redis.image);
  });

  test('when a container refers to a secret, by variable or volume, then create-secrets.sh makes that secret and key', () => {
    let references = 0;
    for (const workload of workloads(rendering)) {
      for (const container of allContainers(workload)) {
        expect(() => environment(container)).not.toThrow();
        references += (container.env ?? []).filter((variable) => variable.valueFrom).length;
      }
      for (const volume of workload.spec.template.spec.volumes ?? []) {
        if (!volume.secret) continue;
        references += 1;
        for (const { key } of volume.secret.items ?? [])
          expect(Object.keys(secrets[volume.secret.secretName]?.data ?? {})).toContain(key);
      }
    }
    expect(references).toBeGreaterThanOrEqual(12);
  });

  test('when a Service is called, then it selects the pods of exactly one workload and targets a port they declare', () => {
    const services = ofKind<Service>(rendering, 'Service');
    expect(services.map((s) => s.metadata.name).sort()).toEqual([
      'accounts',
      'contacts',
      'feedback',
      'gateway',
      'identity',
      'integrations',
      'integrations-receiver',
      'mongo',
      'redis',
    ]);
    for (const service of services) {
      const backends = podsSelectedBy(rendering, { matchLabels: service.spec.selector });
      expect({ service: service.metadata.name, backends: backends.map((w) => w.metadata.name) }).toEqual({
        service: service.metadata.name,
        backends: [service.metadata.name],
      });
      for (const port of service.spec.ports) {
        expect({
          service: service.metadata.name,
          target: containerPort(backends[0], port.targetPort ?? port.port),
        }).toEqual({
          service: service.metadata.name,
          target: expect.any(Number),
        });
      }
    }
  });

  test('when the gateway calls its subgraphs, Redis and the identity service, then each URL names a Service on a port that reaches the right pods', () => {
    const env = environment(mainContainer(named<Workload>(rendering, 'Deployment', 'gateway')));
    const servicePort = (serviceName: string, port: number) => {
      const service = named<Service>(rendering, 'Service', serviceName);
      const entry = service.spec.ports.find((p) => p.port === port);
      if (!entry) throw new Error(`Service ${serviceName} has no port ${port}`);
      return containerPort(
        named<Workload>(rendering, serviceName === 'redis' ? 'StatefulSet' : 'Deployment', serviceName),
        entry.targetPort ?? entry.port,
      );
    };
    for (const name of SUBGRAPHS) {
      const url = new URL(env[`${name.toUpperCase()}_URL`]);
      expect(url.hostname).toBe(name);
      expect(url.pathname).toBe('/graphql');
      expect(servicePort(name, Number(url.port))).toBe(fieldByEnv(APP_SERVICES[name].schema, 'PORT')?.default);
    }
    const identity = new URL(env.IDENTITY_URL);
    expect(identity.hostname).toBe('identity');
    expect(servicePort('identity', Number(identity.port))).toBe(
      fieldByEnv(APP_SERVICES.identity.schema, 'PORT')?.default,
    );
    // The web application's files in the image (the Dockerfile's runtime stage; test/deploy.test.ts).
    expect(env.DASHBOARD_DIR).toBe('/app/dashboard/dist');
    expect(env.MONGODB_URI).toBeUndefined();
    const redis = new URL(env.REDIS_URL);
    expect(redis.hostname).toBe('redis');
    expect(servicePort('redis', Number(redis.port))).toBe(6379);
    expect(redis.password).toBe(secrets['fi-redis'].data.password);
  });

  test('when the services connect to MongoDB, then every member of the StatefulSet is listed, with its replica set and their own user', () => {
    const mongo = named<Workload>(rendering, 'StatefulSet', 'mongo');
    const headless = named<Service>(rendering, 'Service', 'mongo');
    expect(headless.spec.clusterIP).toBe('None');
    expect((mongo.spec as { serviceName?: string }).serviceName).toBe('mongo');
    const replicas = mongo.spec.replicas ?? 1;
    expect(replicas).toBeGreaterThanOrEqual(3);
    const replSet = /--replSet (\S+)/.exec((mainContainer(mongo).command ?? []).join(' '))?.[1];
    expect(replSet).toBeTruthy();
    for (const name of WITH_DATABASE) {
      const uri = environment(mainContainer(named<Workload>(rendering, 'Deployment', name))).MONGODB_URI;
      // The WHATWG URL parser reads one host only; a MongoDB seed list has several.
      const match = /^mongodb:\/\/([^:]+):([^@]+)@([^/]+)\/\?(.*)$/.exec(uri);
      expect(match).not.toBeNull();
      const [, user, password, hosts, query] = match as RegExpExecArray;
      expect(user).toBe(name);
      expect(password).toBe(secrets[`fi-mongodb-${name}`].data.password);
      expect(hosts.split(',')).toEqual(Array.from({ length: replicas }, (_, i) => `mongo-${i}.mongo:27017`));
      expect(new URLSearchParams(query).get('replicaSet')).toBe(replSet);
    }
    const init = named<Workload>(rendering, 'Job', 'mongo-init');
    expect(environment(mainContainer(init)).MONGO_MEMBERS).toBe(String(replicas));
  });

  test('when mongo-init creates the users, then each may use exactly its own database', () => {
    const init = named<Workload>(rendering, 'Job', 'mongo-init');
    const configMapName = init.spec.template.spec.volumes?.find((volume) => volume.configMap)?.configMap?.name;
    const script =
      ofKind(rendering, 'ConfigMap').find((c) => c.metadata.name === configMapName)?.data?.['mongo-init.sh'] ?? '';
    expect(script).toContain("rs.initiate({ _id: 'rs0'");
    const granted = Object.fromEntries(
      [...script.matchAll(/^\s+(\w+): \[([^\]]*)\],$/gm)].map(([, user, list]) => [
        user,
        list.split(',').map((db) => db.trim().replace(/'/g, '')),
      ]),
    );
    expect(granted).toEqual(
      Object.fromEntries(
        WITH_DATABASE.map((name) => [name, [String(fieldByEnv(APP_SERVICES[name].schema, 'MONGODB_DB')?.default)]]),
      ),
    );
    for (const user of Object.keys(granted))
      expect(Object.keys(environment(mainContainer(init)))).toContain(`${user.toUpperCase()}_PASSWORD`);
  });

  test('when the kubelet probes an app service, then liveness and startup ask /health and readiness /ready, on its port', () => {
    for (const name of Object.keys(APP_SERVICES)) {
      const container = mainContainer(named<Workload>(rendering, 'Deployment', name));
      const port = container.ports?.[0];
      const target = (probe?: Probe) =>
        probe?.httpGet && {
          path: probe.httpGet.path,
          port: probe.httpGet.port === port?.name ? port?.containerPort : probe.httpGet.port,
        };
      expect({
        name,
        liveness: target(container.livenessProbe),
        startup: target(container.startupProbe),
        readiness: target(container.readinessProbe),
      }).toEqual({
        name,
        liveness: { path: '/health', port: port?.containerPort },
        startup: { path: '/health', port: port?.containerPort },
        readiness: { path: '/ready', port: port?.containerPort },
      });
    }
    for (const name of ['mongo', 'redis']) {
      const container = mainContainer(named<Workload>(rendering, 'StatefulSet', name));
      expect(container.livenessProbe?.exec).toBeDefined();
      expect(container.readinessProbe?.exec).toBeDefined();
    }
  });

  test('when pods are scheduled, then every container requests and limits CPU and memory, requests within limits', () => {
    for (const workload of workloads(rendering)) {
      for (const container of allContainers(workload)) {
        for (const resource of ['cpu', 'memory']) {
          const request = container.resources?.requests?.[resource];
          const limit = container.resources?.limits?.[resource];
          const where = `${workload.metadata.name}/${container.name} ${resource}`;
          expect({ where, request, limit }).toEqual({ where, request: expect.any(String), limit: expect.any(String) });
          expect({ where, withinLimit: quantity(request as string) <= quantity(limit as string) }).toEqual({
            where,
            withinLimit: true,
          });
        }
      }
    }
  });

  test('when load changes, then an autoscaling/v2 HPA scales the gateway and every subgraph Deployment', () => {
    const hpas = ofKind<Hpa>(rendering, 'HorizontalPodAutoscaler');
    expect(hpas.map((hpa) => hpa.spec.scaleTargetRef.name).sort()).toEqual(Object.keys(APP_SERVICES).sort());
    for (const hpa of hpas) {
      expect(hpa.apiVersion).toBe('autoscaling/v2');
      expect(hpa.spec.scaleTargetRef).toEqual({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        name: hpa.spec.scaleTargetRef.name,
      });
      named<Workload>(rendering, 'Deployment', hpa.spec.scaleTargetRef.name);
      expect(hpa.spec.minReplicas).toBeGreaterThanOrEqual(2);
      expect(hpa.spec.maxReplicas).toBeGreaterThan(hpa.spec.minReplicas);
    }
  });

  test('when a gateway starts without Redis, then the instances it assumes (GATEWAY_INSTANCES) are the most gateways the HPA runs', () => {
    const env = environment(mainContainer(named<Workload>(rendering, 'Deployment', 'gateway')));
    const hpa = ofKind<Hpa>(rendering, 'HorizontalPodAutoscaler').find((h) => h.spec.scaleTargetRef.name === 'gateway');
    expect(Number(env.GATEWAY_INSTANCES)).toBe(hpa?.spec.maxReplicas);
    expect(named<Workload>(rendering, 'Deployment', 'gateway').spec.replicas).toBe(hpa?.spec.minReplicas);
  });

  test('when nodes are drained, then a PodDisruptionBudget keeps every replicated workload serving', () => {
    const pdbs = ofKind<Pdb>(rendering, 'PodDisruptionBudget');
    const covered = pdbs.flatMap((pdb) => {
      const selected = podsSelectedBy(rendering, pdb.spec.selector);
      expect({ pdb: pdb.metadata.name, selected: selected.length }).toEqual({ pdb: pdb.metadata.name, selected: 1 });
      expect(pdb.spec.maxUnavailable).toBe(1);
      return selected.map((w) => w.metadata.name);
    });
    expect(covered.sort()).toEqual([...Object.keys(APP_SERVICES), 'mongo'].sort());
  });

  test('when NetworkPolicies are enforced, then exactly the intended connections are possible', () => {
    const namespaceLabels = (namespace: string) => ({ 'kubernetes.io/metadata.name': namespace });
    const ours: Pod[] = workloads(rendering).map((workload, index) => ({
      name: workload.metadata.name,
      namespace: NAMESPACE,
      ip: `10.244.0.${index + 10}`,
      namespaceLabels: namespaceLabels(NAMESPACE),
      labels: workload.spec.template.metadata.labels,
      ports: workload.kind === 'Job' ? [] : (mainContainer(workload).ports ?? []),
    }));
    const outside: Pod[] = [
      {
        name: 'stranger',
        namespace: NAMESPACE,
        namespaceLabels: namespaceLabels(NAMESPACE),
        labels: { run: 'debug' },
        ports: [],
      },
      {
        name: 'other-namespace',
        namespace: 'default',
        namespaceLabels: namespaceLabels('default'),
        labels: {},
        ports: [],
      },
      {
        name: 'ingress-controller',
        namespace: 'ingress-nginx',
        namespaceLabels: namespaceLabels('ingress-nginx'),
        labels: { 'app.kubernetes.io/name': 'ingress-nginx' },
        ports: [],
      },
      {
        name: 'kube-dns',
        namespace: 'kube-system',
        namespaceLabels: namespaceLabels('kube-system'),
        labels: { 'k8s-app': 'kube-dns' },
        ports: [
          { containerPort: 53, protocol: 'UDP' },
          { containerPort: 53, protocol: 'TCP' },
        ],
      },
      ...[
        { name: 'internet', ip: '203.0.113.10' },
        { name: 'internet-v6', ip: '2606:4700::1111' },
        { name: 'cloud-metadata', ip: '169.254.169.254' },
        { name: 'private-network', ip: '192.168.1.20' },
        { name: 'private-v6', ip: 'fd00::20' },
      ].map(({ name, ip }) => ({
        name,
        ip,
        namespace: '',
        namespaceLabels: {},
        labels: {},
        ports: [{ containerPort: 443 }, { containerPort: 80 }],
      })),
    ];
    const policies = ofKind(rendering, 'NetworkPolicy') as unknown as NetworkPolicy[];
    const actual = reachability(policies, [...ours, ...outside], (pod) => pod.namespace === NAMESPACE);

    // A pod of this namespace without an allowing policy (`stranger`) reaches nothing but DNS: default-deny holds its egress.
    const clients =
      rendering === 'production'
        ? ['ingress-controller']
        : outside.filter((pod) => pod.namespace !== NAMESPACE).map((pod) => pod.name);
    const dns = [...ours.map((pod) => pod.name), 'stranger'].flatMap((name) => [
      `${name} -> kube-dns:53`,
      `${name} -> kube-dns:53/UDP`,
    ]);
    const expected = [
      ...clients.map((client) => `${client} -> gateway:4000`),
      ...clients.map((client) => `${client} -> integrations-receiver:4007`),
      'gateway -> feedback:4001',
      'gateway -> contacts:4002',
      'gateway -> accounts:4003',
      'gateway -> identity:4004',
      'gateway -> integrations:4006',
      'gateway -> redis:6379',
      ...WITH_DATABASE.map((name) => `${name} -> mongo:27017`),
      'feedback-worker -> mongo:27017',
      'integrations-worker -> mongo:27017',
      'integrations-receiver -> mongo:27017',
      // Items and records of connected platforms, through the services' own APIs.
      'integrations-worker -> feedback:4001',
      'integrations-worker -> contacts:4002',
      'integrations-worker -> accounts:4003',
      // Changes of connections into the audit log, which the identity service keeps.
      'integrations -> identity:4004',
      'mongo -> mongo:27017',
      'mongo-init -> mongo:27017',
      // Webhook deliveries, sent by the worker: public addresses on 443 only.
      'feedback-worker -> internet:443',
      'feedback-worker -> internet-v6:443',
      ...dns,
    ];
    expect(actual).toEqual(expected.sort());
  });

  test('when the policies are read, then the model judges them: an unselected pod is open and a rule without peers admits all', () => {
    const pod = (name: string, labels: Labels): Pod => ({
      name,
      namespace: 'n',
      namespaceLabels: {},
      labels,
      ports: [{ name: 'http', containerPort: 80 }],
    });
    const only: NetworkPolicy = {
      metadata: { name: 'only-a-to-b', namespace: 'n' },
      spec: {
        podSelector: { matchLabels: { app: 'b' } },
        ingress: [{ from: [{ podSelector: { matchLabels: { app: 'a' } } }], ports: [{ port: 'http' }] }],
      },
    };
    const pods = [pod('a', { app: 'a' }), pod('b', { app: 'b' }), pod('c', { app: 'c' })];
    // b admits a only; a and c select no policy, so they stay open.
    expect(reachability([only], pods, () => true)).toEqual([
      'a -> a:80',
      'a -> b:80',
      'a -> c:80',
      'b -> a:80',
      'b -> c:80',
      'c -> a:80',
      'c -> c:80',
    ]);
    const open: NetworkPolicy = {
      metadata: { name: 'open', namespace: 'n' },
      spec: { podSelector: {}, ingress: [{}] },
    };
    expect(reachability([open], pods, () => true)).toHaveLength(9);

    const outward: NetworkPolicy = {
      metadata: { name: 'public-only', namespace: 'n' },
      spec: {
        podSelector: { matchLabels: { app: 'a' } },
        policyTypes: ['Egress'],
        egress: [{ to: [{ ipBlock: { cidr: '0.0.0.0/0', except: ['10.0.0.0/8'] } }] }],
      },
    };
    const address = (name: string, ip: string): Pod => ({ ...pod(name, {}), namespace: '', ip });
    const from = reachability(
      [outward],
      [
        pod('a', { app: 'a' }),
        address('public', '198.51.100.7'),
        address('private', '10.1.2.3'),
        address('v6', '2001:db8::1'),
      ],
      () => true,
    );
    expect(from.filter((path) => path.startsWith('a ->'))).toEqual(['a -> public:80']);
  });
});

describe('subgraphs are never exposed', () => {
  // Only the gateway checks a key's budgets, points and concurrency: a subgraph reachable from outside
  // would bypass them all (docs/limits.md, Bulkheads).
  test.each(Object.keys(RENDERINGS) as Array<keyof typeof RENDERINGS>)(
    'when the %s rendering is applied, then every subgraph Service is cluster-internal and no Ingress routes to one',
    (rendering) => {
      for (const name of SUBGRAPHS) {
        const { spec } = named<Service>(rendering, 'Service', name);
        expect({
          name,
          type: spec.type ?? 'ClusterIP',
          externalIPs: spec.externalIPs ?? [],
          nodePorts: spec.ports.flatMap((p) => (p.nodePort ? [p.nodePort] : [])),
        }).toEqual({
          name,
          type: 'ClusterIP',
          externalIPs: [],
          nodePorts: [],
        });
      }
      const ingresses = ofKind<
        Resource & { spec: { rules?: Array<{ http?: { paths: Array<{ backend: { service?: { name: string } } }> } }> } }
      >(rendering, 'Ingress');
      const backends = ingresses.flatMap((ingress) =>
        (ingress.spec.rules ?? []).flatMap((rule) => (rule.http?.paths ?? []).map((p) => p.backend.service?.name)),
      );
      // The integrations receiver is public by design: it verifies every event's signature itself.
      expect(backends.filter((backend) => backend !== 'gateway' && !PUBLIC_RECEIVERS.includes(backend ?? ''))).toEqual(
        [],
      );
    },
  );
});

describe('deploy/k8s production overlay', () => {
  test('when clients arrive, then they come through the ingress to the API, exports and pages only (never /health, /ready, /metrics), the gateway trusts the proxy address, and webhooks refuse http and private targets explicitly', () => {
    const ingress = named<Resource>('production', 'Ingress', 'gateway') as Resource & {
      spec: {
        rules: Array<{
          http: {
            paths: Array<{
              path: string;
              pathType: string;
              backend: { service: { name: string; port: { name?: string; number?: number } } };
            }>;
          };
        }>;
      };
    };
    const paths = ingress.spec.rules.flatMap((rule) => rule.http.paths);
    expect(
      paths.every((path) => path.backend.service.name === 'gateway' && path.backend.service.port.name === 'http'),
    ).toBe(true);
    expect(paths).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: '/graphql', pathType: 'Exact' }),
        expect.objectContaining({ path: '/admin/graphql', pathType: 'Exact' }),
        expect.objectContaining({ path: '/exports', pathType: 'Prefix' }),
        expect.objectContaining({ path: '/assets', pathType: 'Prefix' }),
      ]),
    );
    // What stays inside the cluster: no path reaches it, and no catch-all prefix would.
    const reaches = (url: string) =>
      paths.some((path) =>
        path.pathType === 'Exact' ? url === path.path : url === path.path || url.startsWith(`${path.path}/`),
      );
    for (const internal of ['/health', '/ready', '/metrics']) expect(reaches(internal)).toBe(false);
    expect(paths.some((path) => path.pathType === 'Prefix' && path.path === '/')).toBe(false);
    expect(named<Service>('production', 'Service', 'gateway').spec.ports.map((p) => p.name)).toContain('http');
    const env = environment(mainContainer(named<Workload>('production', 'Deployment', 'gateway')));
    expect(env.TRUST_PROXY).toBe('true');
    expect(env.DEBUG_ERRORS).toBe('false');
    for (const name of ['feedback', 'feedback-worker']) {
      const feedback = environment(mainContainer(named<Workload>('production', 'Deployment', name)));
      expect({
        name,
        allowHttp: feedback.WEBHOOK_ALLOW_HTTP,
        privateTargets: feedback.WEBHOOK_PRIVATE_TARGETS,
      }).toEqual({
        name,
        allowHttp: 'false',
        privateTargets: 'refuse',
      });
    }
    expect(mainContainer(named<Workload>('production', 'Deployment', 'gateway')).image).not.toMatch(/:latest$/);
  });
});
