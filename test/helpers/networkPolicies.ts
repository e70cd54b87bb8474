import { BlockList, isIPv6 } from 'node:net';

/**
 * Kubernetes NetworkPolicy semantics, enough to compute who may open a connection to whom: a pod is
 * isolated for ingress (egress) once any policy of its namespace selects it with that policy type, and
 * then only what some rule of those policies allows passes; a connection needs both the sender's egress
 * and the receiver's ingress. Supported: podSelector, namespaceSelector (matchLabels, matchExpressions
 * In/NotIn/Exists/DoesNotExist), ipBlock (cidr minus except, IPv4 and IPv6) for endpoints with an address,
 * ports by number or container-port name.
 */

export type Labels = Record<string, string>;

export interface LabelSelector {
  matchLabels?: Labels;
  matchExpressions?: Array<{ key: string; operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist'; values?: string[] }>;
}

interface Peer {
  podSelector?: LabelSelector;
  namespaceSelector?: LabelSelector;
  ipBlock?: { cidr: string; except?: string[] };
}
interface PolicyPort {
  protocol?: string;
  port?: number | string;
  endPort?: number;
}
interface Rule {
  from?: Peer[];
  to?: Peer[];
  ports?: PolicyPort[];
}
export interface NetworkPolicy {
  metadata: { name: string; namespace?: string };
  spec: { podSelector: LabelSelector; policyTypes?: Array<'Ingress' | 'Egress'>; ingress?: Rule[]; egress?: Rule[] };
}

export interface Pod {
  name: string;
  namespace: string;
  namespaceLabels: Labels;
  labels: Labels;
  /** Its address; a pod of the cluster has one in a private range. */
  ip?: string;
  ports: Array<{ name?: string; containerPort: number; protocol?: string }>;
}

export function selects(selector: LabelSelector | undefined, labels: Labels): boolean {
  if (!selector) return true;
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) if (labels[key] !== value) return false;
  for (const { key, operator, values = [] } of selector.matchExpressions ?? []) {
    const has = key in labels;
    const ok =
      operator === 'In'
        ? has && values.includes(labels[key])
        : operator === 'NotIn'
          ? !has || !values.includes(labels[key])
          : operator === 'Exists'
            ? has
            : !has;
    if (!ok) return false;
  }
  return true;
}

function policyTypes(policy: NetworkPolicy): string[] {
  return policy.spec.policyTypes ?? (policy.spec.egress ? ['Ingress', 'Egress'] : ['Ingress']);
}

function peerMatches(peer: Peer, policyNamespace: string, other: Pod): boolean {
  if (peer.ipBlock) return !!other.ip && inBlock(peer.ipBlock, other.ip);
  const namespaceOk = peer.namespaceSelector
    ? selects(peer.namespaceSelector, other.namespaceLabels)
    : other.namespace === policyNamespace;
  return namespaceOk && (peer.podSelector ? selects(peer.podSelector, other.labels) : true);
}

function inBlock({ cidr, except = [] }: { cidr: string; except?: string[] }, ip: string): boolean {
  const family = isIPv6(ip) ? 'ipv6' : 'ipv4';
  const contains = (block: string) => {
    const [network, prefix] = block.split('/');
    if (isIPv6(network) !== (family === 'ipv6')) return false;
    const list = new BlockList();
    list.addSubnet(network, Number(prefix), family);
    return list.check(ip, family);
  };
  return contains(cidr) && !except.some(contains);
}

function portMatches(ports: PolicyPort[] | undefined, port: Pod['ports'][number]): boolean {
  if (!ports || ports.length === 0) return true;
  return ports.some(
    (p) =>
      (p.protocol ?? 'TCP') === (port.protocol ?? 'TCP') &&
      (p.port === undefined || (typeof p.port === 'number' ? p.port === port.containerPort : p.port === port.name)),
  );
}

function allowedBy(
  policies: NetworkPolicy[],
  pod: Pod,
  type: 'Ingress' | 'Egress',
  other: Pod,
  port: Pod['ports'][number],
): boolean {
  const isolating = policies.filter(
    (policy) =>
      (policy.metadata.namespace ?? pod.namespace) === pod.namespace &&
      policyTypes(policy).includes(type) &&
      selects(policy.spec.podSelector, pod.labels),
  );
  if (isolating.length === 0) return true;
  return isolating.some((policy) =>
    (type === 'Ingress' ? policy.spec.ingress : policy.spec.egress)?.some((rule) => {
      const peers = type === 'Ingress' ? rule.from : rule.to;
      const peerOk = !peers || peers.length === 0 || peers.some((peer) => peerMatches(peer, pod.namespace, other));
      return peerOk && portMatches(rule.ports, port);
    }),
  );
}

/** Every `source -> destination:port[/UDP]` connection the policies allow among `pods`. */
export function reachability(policies: NetworkPolicy[], pods: Pod[], involving: (pod: Pod) => boolean): string[] {
  const allowed: string[] = [];
  for (const source of pods) {
    for (const destination of pods) {
      if (!involving(source) && !involving(destination)) continue;
      for (const port of destination.ports) {
        if (
          allowedBy(policies, source, 'Egress', destination, port) &&
          allowedBy(policies, destination, 'Ingress', source, port)
        ) {
          const protocol = port.protocol && port.protocol !== 'TCP' ? `/${port.protocol}` : '';
          allowed.push(`${source.name} -> ${destination.name}:${port.containerPort}${protocol}`);
        }
      }
    }
  }
  return allowed.sort();
}
