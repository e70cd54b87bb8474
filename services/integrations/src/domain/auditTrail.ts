/** Who changed a connection: a signed-in member (the id the gateway signed), or an operator's CLI (null). */
export interface ChangeActor {
  memberId: string | null;
}

export type IntegrationAuditAction =
  | 'integration.added'
  | 'integration.paused'
  | 'integration.resumed'
  | 'integration.secret_rotated'
  | 'integration.removed';

/** The organization's audit log, which the identity service owns: every change of a connection goes there. */
export interface AuditPort {
  record(orgId: string, actor: ChangeActor, action: IntegrationAuditAction, target: string): Promise<void>;
}
