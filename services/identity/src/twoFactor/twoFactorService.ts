import { createHash, randomBytes } from 'node:crypto';
import { badRequest, forbidden, type SecretBox } from '@fi/shared';
import type { Member } from '../data/memberRepository';
import type { Organization } from '../data/organizationRepository';
import type { IdentityRepositories } from '../data/repositories';
import type { Actor } from '../domain/actor';
import type { SecondFactorGate } from '../domain/secondFactor';
import type { SignInThrottle } from '../domain/signInThrottle';
import type { TwoFactorChallenge, TwoFactorRecord, TwoFactorStores } from './data';
import { hashRecoveryCode, looksLikeRecoveryCode, newRecoveryCodes } from './recoveryCodes';
import { enrollment, matchingStep, newTotpSecret, stepUseEnds } from './totp';
import { alreadyOn, challengeExpired, notConfigured, secondStepDue, wrongCode } from './twoFactorErrors';

export interface TwoFactorOptions {
  /** Seals TOTP secrets at rest (TWO_FACTOR_SECRET_KEY); null: two-factor cannot be set up. */
  secrets: SecretBox | null;
  /** How long a half-finished sign-in waits for its second step. */
  challengeTtlMs: number;
  /** Wrong codes one member may send per sign-in window over every address (each address has its own, smaller count too). */
  perMemberLimit: number;
  /** The time TOTP codes are checked at: the clock, or a fixed one in tests. */
  now?: () => Date;
}

export interface TwoFactorSetup {
  secret: string;
  otpauthUrl: string;
  qrCode: string;
}

type MemberActor = Actor & { kind: 'member' };
/** A recovery code's use is kept as long as its set could be: a year, then the sweep may drop it. */
const RECOVERY_USE_KEPT_MS = 366 * 24 * 3_600_000;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * Two-factor sign-in with TOTP (RFC 6238): each member's setup (a secret shown once as a QR code, confirmed
 * by a first code, with ten single-use recovery codes), the organization's requirement (set by an owner),
 * and the second step of a sign-in. Codes are counted like passwords (one slot each before the check) and
 * each code, recovery code and half-finished sign-in is good once (a unique insert records its use).
 */
export class TwoFactorService implements SecondFactorGate {
  private readonly now: () => Date;

  constructor(
    private readonly repositories: IdentityRepositories,
    private readonly stores: TwoFactorStores,
    private readonly throttle: SignInThrottle,
    private readonly options: TwoFactorOptions,
  ) {
    this.now = options.now ?? (() => new Date());
  }

  /** The signed-in member's setup, and whether their organization requires one. */
  async status(actor: MemberActor) {
    const [record, required] = await Promise.all([
      this.stores.setups.find(actor.member.id),
      this.stores.policies.required(actor.member.orgId),
    ]);
    const on = record?.confirmedAt ? record : null;
    return {
      enabled: on !== null,
      required,
      recoveryCodesLeft: on ? on.recoveryHashes.length - (await this.stores.uses.count(recoveryPrefix(on))) : 0,
    };
  }

  /** A new secret for the member, not yet asked for at sign-in: shown once (QR code), confirmed by a first code. */
  async startSetup(member: Member): Promise<TwoFactorSetup> {
    const secrets = this.requireSecrets();
    const secret = newTotpSecret();
    const started = await this.stores.setups.startSetup({
      memberId: member.id,
      orgId: member.orgId,
      secret: secrets.seal(secret, member.id),
      confirmedAt: null,
      recoverySetId: randomBytes(8).toString('hex'),
      recoveryHashes: [],
      createdAt: new Date(),
    });
    if (!started) throw alreadyOn();
    return { secret, ...(await enrollment(secret, member.email)) };
  }

  /** The first code turns the setup on; the recovery codes come back this once. */
  async confirmSetup(member: Member, code: string, address: string): Promise<string[]> {
    const record = await this.stores.setups.find(member.id);
    if (!record) throw badRequest('Start the setup first: scan the QR code, then enter the code it shows');
    if (record.confirmedAt) throw alreadyOn();
    await this.checkCode(member, record, code, address, { totpOnly: true });
    const { codes, hashes } = newRecoveryCodes();
    await this.stores.setups.startSetup({ ...record, recoveryHashes: hashes });
    await this.stores.setups.confirm(member.id, new Date());
    await this.audit(member, 'two_factor.enabled', address);
    return codes;
  }

  /** Turning it off takes a current code (or a recovery code), and is refused while the organization requires it. */
  async disable(actor: MemberActor, code: string): Promise<void> {
    const { member, address } = actor;
    if (await this.stores.policies.required(member.orgId))
      throw forbidden('Your organization requires two-factor sign-in; it cannot be turned off');
    const record = await this.stores.setups.find(member.id);
    if (!record?.confirmedAt) throw badRequest('Two-factor sign-in is not on');
    await this.checkCode(member, record, code, address ?? '');
    await this.stores.setups.remove(member.id);
    await this.audit(member, 'two_factor.disabled', address);
  }

  /** Owners only: members without a setup are asked to set one up at their next sign-in. */
  async setRequired(actor: MemberActor, required: boolean): Promise<boolean> {
    if (actor.member.role !== 'owner') throw forbidden('Only owners can require two-factor sign-in');
    if (required) this.requireSecrets();
    await this.stores.policies.set(actor.member.orgId, required, actor.member.email);
    await this.repositories.audit.record({
      orgId: actor.member.orgId,
      action: 'two_factor.required_changed',
      actor: actor.member.email,
      target: required ? 'required' : 'optional',
      address: actor.address,
    });
    return required;
  }

  /**
   * Between a right password (or single sign-on) and a session: nothing when the member has no setup and
   * the organization requires none; otherwise the half-finished sign-in's challenge, thrown for the page.
   */
  async require(member: Member, organization: Organization): Promise<void> {
    const [record, required] = await Promise.all([
      this.stores.setups.find(member.id),
      this.stores.policies.required(organization.id),
    ]);
    const kind = record?.confirmedAt ? 'code' : required ? 'enroll' : null;
    if (!kind) return;
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(Date.now() + this.options.challengeTtlMs);
    await this.stores.challenges.create({
      id: sha256(token),
      memberId: member.id,
      orgId: organization.id,
      kind,
      expiresAt,
    });
    throw secondStepDue(kind === 'code' ? 'TWO_FACTOR_REQUIRED' : 'TWO_FACTOR_ENROLLMENT_REQUIRED', token, expiresAt);
  }

  /** The second step: a right code (or recovery code) ends the challenge and names who may now have a session. */
  async verify(
    challengeToken: string,
    code: string,
    address: string,
  ): Promise<{ member: Member; organization: Organization }> {
    const { challenge, member, organization } = await this.openChallenge(challengeToken, 'code');
    const record = await this.stores.setups.find(member.id);
    if (!record?.confirmedAt) throw challengeExpired();
    await this.checkCode(member, record, code, address);
    await this.useChallenge(challenge);
    return { member, organization };
  }

  /** During a sign-in the organization requires two-factor for: the setup, as in Settings. */
  async startEnrollment(challengeToken: string): Promise<TwoFactorSetup> {
    const { member } = await this.openChallenge(challengeToken, 'enroll');
    return this.startSetup(member);
  }

  /** The setup's first code finishes both the setup and the sign-in. */
  async finishEnrollment(challengeToken: string, code: string, address: string) {
    const { challenge, member, organization } = await this.openChallenge(challengeToken, 'enroll');
    const recoveryCodes = await this.confirmSetup(member, code, address);
    await this.useChallenge(challenge);
    return { member, organization, recoveryCodes };
  }

  private async openChallenge(token: string, kind: TwoFactorChallenge['kind']) {
    const challenge = token.length <= 100 ? await this.stores.challenges.find(sha256(token)) : null;
    if (!challenge || challenge.kind !== kind || challenge.expiresAt.getTime() <= Date.now()) throw challengeExpired();
    const [member, organization] = await Promise.all([
      this.repositories.members.findById(challenge.memberId),
      this.repositories.organizations.findById(challenge.orgId),
    ]);
    // Removed or deactivated meanwhile: the half-finished sign-in ends with the membership.
    if (!member || member.orgId !== challenge.orgId || !organization) throw challengeExpired();
    // Checked before a code is: a used challenge must not use up the code sent with it.
    if (await this.stores.uses.used(challengeUse(challenge))) throw challengeExpired();
    return { challenge, member, organization };
  }

  private async useChallenge(challenge: TwoFactorChallenge): Promise<void> {
    if (!(await this.stores.uses.firstUse(challengeUse(challenge), challenge.expiresAt))) throw challengeExpired();
  }

  /**
   * Counts the attempt like a password (per member and address, per address, and per member over every
   * address), then checks it: a TOTP code of the current step (or one either side) not used before, or
   * an unused recovery code. A wrong or reused code is audited and refused.
   */
  private async checkCode(
    member: Member,
    record: TwoFactorRecord,
    rawCode: string,
    address: string,
    options: { totpOnly?: boolean } = {},
  ): Promise<void> {
    const secrets = this.requireSecrets();
    const code = rawCode.trim();
    const { matches, recovery } = await this.throttle.attempt(
      `two-factor:${member.id}`,
      address,
      async () => {
        if (!options.totpOnly && looksLikeRecoveryCode(code)) {
          const index = record.recoveryHashes.indexOf(hashRecoveryCode(code));
          const unused =
            index >= 0 &&
            (await this.stores.uses.firstUse(
              `${recoveryPrefix(record)}${index}`,
              new Date(Date.now() + RECOVERY_USE_KEPT_MS),
            ));
          return { matches: unused, recovery: true };
        }
        const step = await matchingStep(secrets.open(record.secret, member.id), code.replace(/\s/g, ''), this.now());
        const unused =
          step !== null && (await this.stores.uses.firstUse(`totp:${member.id}:${step}`, stepUseEnds(step)));
        return { matches: unused, recovery: false };
      },
      [{ subject: `two-factor-member:${member.id}`, limit: this.options.perMemberLimit }],
    );
    if (!matches) {
      await this.audit(member, 'two_factor.failed', address);
      throw wrongCode();
    }
    if (recovery) await this.audit(member, 'two_factor.recovery_code_used', address);
  }

  private requireSecrets(): SecretBox {
    if (!this.options.secrets) throw notConfigured();
    return this.options.secrets;
  }

  private audit(
    member: Member,
    action: 'two_factor.enabled' | 'two_factor.disabled' | 'two_factor.failed' | 'two_factor.recovery_code_used',
    address: string | null,
  ) {
    return this.repositories.audit.record({ orgId: member.orgId, action, actor: member.email, target: null, address });
  }
}

const challengeUse = (challenge: TwoFactorChallenge) => `challenge:${challenge.id}`;
const recoveryPrefix = (record: TwoFactorRecord) => `recovery:${record.memberId}:${record.recoverySetId}:`;
