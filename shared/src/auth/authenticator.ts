import { forbidden, unauthenticated } from '../errors';
import type { Tier } from './apiKey';
import type { MemberPrincipal, Principal } from './signedIdentity';

/** Who is calling: a principal of the operation's signed identity. */
export interface Caller {
  keyId: string;
  orgId: string;
  tier: Tier;
  readOnly: boolean;
  rateLimitPerMinute: number | null;
}

/**
 * A subgraph's view of the operation's callers, from the identity the gateway signed. The `apiKey`
 * arguments a subgraph receives hold the key's id (the gateway swaps the secret for it), so each root
 * field is answered for the key it was given, as the spec requires. A service's admin schema is given
 * the signed-in member instead (see `member`).
 */
export class Authenticator {
  private readonly byRef: Map<string, Principal>;

  constructor(principals: Principal[]) {
    this.byRef = new Map(principals.map((principal) => [principal.ref, principal]));
  }

  /** Only API keys: what a service's public schema accepts. */
  static forKeys(principals: Principal[]): Authenticator {
    return new Authenticator(principals.filter((principal) => principal.kind === 'key'));
  }

  /** Only the signed-in member: what a service's admin schema accepts. */
  static forMember(principals: Principal[]): Authenticator {
    return new Authenticator(principals.filter((principal) => principal.kind === 'member').slice(0, 1));
  }

  /** The signed-in member of the operation, if any (see forMember). */
  member(): MemberPrincipal | null {
    const [first] = this.byRef.values();
    return first?.kind === 'member' ? (first as MemberPrincipal) : null;
  }

  /** Throws UNAUTHENTICATED ("Invalid API key") for a key the signed identity does not vouch for. */
  async require(apiKey: unknown): Promise<Caller> {
    const principal = typeof apiKey === 'string' ? this.byRef.get(apiKey) : undefined;
    if (!principal) throw unauthenticated();
    return {
      keyId: principal.ref,
      orgId: principal.orgId,
      tier: principal.tier,
      readOnly: principal.readOnly,
      rateLimitPerMinute: principal.rateLimitPerMinute,
    };
  }

  async requireWriter(apiKey: unknown, refusal: string): Promise<Caller> {
    const caller = await this.require(apiKey);
    if (caller.readOnly) throw forbidden(refusal);
    return caller;
  }

  /** Organizations of the operation's callers; entity fetches (which carry no key) are scoped to them. */
  orgs(): Set<string> {
    const orgs = new Set([...this.byRef.values()].map((principal) => principal.orgId));
    if (orgs.size === 0) throw unauthenticated();
    return orgs;
  }
}
