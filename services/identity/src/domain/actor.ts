import type { Member } from '../data/memberRepository';

/**
 * Who asks for a change: a signed-in member (with the address the request came from), or an operator
 * at a shell (the CLI), who is trusted with every organization and acts outside the web application.
 */
export type Actor = { kind: 'member'; member: Member; address: string | null } | { kind: 'operator' };

export const OPERATOR = { kind: 'operator' } as const satisfies Actor;

export const actorName = (actor: Actor) => (actor.kind === 'member' ? actor.member.email : 'cli');
export const actorAddress = (actor: Actor) => (actor.kind === 'member' ? actor.address : null);

/** Whether a record's `createdBy` (an actorName) names a member (by email) rather than an operator's tool. */
export const createdByMember = (name: string) => name.includes('@');
