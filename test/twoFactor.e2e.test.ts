import { randomBytes } from 'node:crypto';
import {
  MemberService,
  openRepositories,
  openTwoFactor,
  OPERATOR,
  SignInThrottle,
  type TwoFactorService,
} from '@fi/identity';
import type { Role } from '@fi/shared';
import type { GraphQLError } from 'graphql';
import type { Connection } from 'mongoose';
import { generate } from 'otplib';
import { startStack, type Stack } from './helpers/stack';

const SECRET_KEY = randomBytes(32).toString('hex');
let stack: Stack;
let identityDb: Connection;
let members: MemberService;
/** The clock the service checks codes at: fixed, moved by the tests. */
let clock = new Date('2026-11-29T09:00:10Z');
let twoFactor: TwoFactorService;
beforeAll(async () => {
  stack = await startStack({ TWO_FACTOR_SECRET_KEY: SECRET_KEY }, { worker: false });
  identityDb = await stack.connect('identity');
  const repositories = await openRepositories(identityDb);
  members = new MemberService(repositories);
  const throttle = new SignInThrottle(repositories.signInFailures, {
    perAccount: 5,
    perAddress: 50,
    windowMs: 15 * 60_000,
    checksPerAddress: 100,
  });
  ({ service: twoFactor } = await openTwoFactor(identityDb, repositories, throttle, {
    secretKey: Buffer.from(SECRET_KEY, 'hex'),
    challengeMinutes: 5,
    perMemberLimit: 10,
    now: () => clock,
  }));
});
afterAll(() => stack.close());

let people = 0;
async function addMember(role: Role = 'member', orgId?: string) {
  const org = orgId ?? (await stack.createKey()).orgId;
  const email = `${role}-${(people += 1)}-${Date.now()}@example.com`;
  const password = `correct horse ${email} battery`;
  const member = await members.add(OPERATOR, org, { email, name: `${role} person`, role, password });
  const organization = { id: org, name: org, tier: 'pro' as const, createdAt: new Date() };
  const actor = { kind: 'member' as const, member, address: '203.0.113.7' };
  return { member, organization, actor, email, password, orgId: org };
}

/** The code an authenticator app shows for `secret` at `at`. */
const codeAt = (secret: string, at: Date) => generate({ secret, epoch: Math.floor(at.getTime() / 1000) });
const seconds = (n: number) => new Date(clock.getTime() + n * 1000);

/** Turns two-factor on for the member at the fixed clock; returns the secret and recovery codes. */
async function enable(person: Awaited<ReturnType<typeof addMember>>) {
  const setup = await twoFactor.startSetup(person.member);
  const recoveryCodes = await twoFactor.confirmSetup(person.member, await codeAt(setup.secret, clock), '203.0.113.7');
  return { secret: setup.secret, recoveryCodes };
}

/** The challenge `require` throws for the member (the half-signed-in state), and why. */
async function challengeFor(person: Awaited<ReturnType<typeof addMember>>) {
  const error = await twoFactor.require(person.member, person.organization).then(
    () => null,
    (thrown: GraphQLError) => thrown,
  );
  return { reason: error?.extensions.reason, challenge: error?.extensions.challenge as string };
}

const reasonOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'passed',
    (error: GraphQLError) => String(error.extensions.reason ?? error.extensions.code),
  );

describe('with a fixed clock', () => {
  beforeEach(() => {
    // A fresh 30-second step for each test: codes used by one test are not another's.
    clock = new Date(clock.getTime() + 10 * 60_000);
  });

  test('when the right code is given, then the sign-in passes; a wrong one, one two steps old or one reused within its window is refused', async () => {
    const person = await addMember();
    expect(await reasonOf(twoFactor.require(person.member, person.organization))).toBe('passed');
    const { secret } = await enable(person);
    expect((await twoFactor.status(person.actor)).enabled).toBe(true);

    const first = await challengeFor(person);
    expect(first.reason).toBe('TWO_FACTOR_REQUIRED');
    expect(await reasonOf(twoFactor.verify(first.challenge, '000000', 'a1'))).toBe('TWO_FACTOR_CODE_REJECTED');
    expect(await reasonOf(twoFactor.verify(first.challenge, await codeAt(secret, seconds(-61)), 'a1'))).toBe(
      'TWO_FACTOR_CODE_REJECTED',
    );
    // The confirmation used the current step's code: the same code is refused for the rest of its window.
    expect(await reasonOf(twoFactor.verify(first.challenge, await codeAt(secret, clock), 'a1'))).toBe(
      'TWO_FACTOR_CODE_REJECTED',
    );
    clock = seconds(30);
    const next = await codeAt(secret, clock);
    await expect(twoFactor.verify(first.challenge, next, 'a1')).resolves.toMatchObject({
      member: { id: person.member.id },
    });
    // A challenge is good once.
    expect(await reasonOf(twoFactor.verify(first.challenge, await codeAt(secret, seconds(30)), 'a1'))).toBe(
      'TWO_FACTOR_CHALLENGE_EXPIRED',
    );
    // The code of the step before is still taken (clocks drift), unless it was used.
    clock = seconds(30);
    const second = await challengeFor(person);
    expect(await reasonOf(twoFactor.verify(second.challenge, next, 'a1'))).toBe('TWO_FACTOR_CODE_REJECTED');
    expect(await reasonOf(twoFactor.verify(second.challenge, await codeAt(secret, seconds(-30)), 'a1'))).toBe(
      'TWO_FACTOR_CODE_REJECTED',
    );
    expect(await reasonOf(twoFactor.verify(second.challenge, await codeAt(secret, clock), 'a1'))).toBe('passed');
    const failures = await identityDb
      .collection('audit_log')
      .countDocuments({ orgId: person.orgId, action: 'two_factor.failed' });
    expect(failures).toBe(5);
  });

  test('when the same right code is sent five times at once, then exactly one sign-in passes', async () => {
    const person = await addMember();
    const { secret } = await enable(person);
    clock = seconds(30);
    const code = await codeAt(secret, clock);
    const challenges = await Promise.all(Array.from({ length: 5 }, () => challengeFor(person)));
    const outcomes = await Promise.all(
      challenges.map(({ challenge }) => reasonOf(twoFactor.verify(challenge, code, 'a2'))),
    );
    expect(outcomes.filter((outcome) => outcome === 'passed')).toHaveLength(1);
  });

  test('when a recovery code is used, then it works once and the count of those left goes down', async () => {
    const person = await addMember();
    const { recoveryCodes } = await enable(person);
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    const stored = JSON.stringify(
      await identityDb.collection('two_factor').findOne({ _id: person.member.id as never }),
    );
    for (const code of recoveryCodes) expect(stored).not.toContain(code);

    const { challenge } = await challengeFor(person);
    // Typed in lower case and without the dash, as people do.
    await expect(
      twoFactor.verify(challenge, recoveryCodes[3].toLowerCase().replace('-', ''), 'a3'),
    ).resolves.toBeTruthy();
    expect((await twoFactor.status(person.actor)).recoveryCodesLeft).toBe(9);
    const again = await challengeFor(person);
    expect(await reasonOf(twoFactor.verify(again.challenge, recoveryCodes[3], 'a3'))).toBe('TWO_FACTOR_CODE_REJECTED');
    expect(
      await identityDb
        .collection('audit_log')
        .countDocuments({ orgId: person.orgId, action: 'two_factor.recovery_code_used' }),
    ).toBe(1);
  });

  test('when codes are guessed, then an address is stopped after 5 like passwords, and the member after 10 over every address', async () => {
    const person = await addMember();
    const { secret } = await enable(person);
    const { challenge } = await challengeFor(person);
    const guesses = await Promise.all(
      Array.from({ length: 8 }, (_, n) => reasonOf(twoFactor.verify(challenge, String(100000 + n), '198.51.100.1'))),
    );
    expect(guesses.filter((outcome) => outcome === 'TWO_FACTOR_CODE_REJECTED')).toHaveLength(5);
    expect(guesses.filter((outcome) => outcome === 'RATE_LIMITED')).toHaveLength(3);
    clock = seconds(30);
    // Refused at that address even with the right code; another address still has its own count...
    expect(await reasonOf(twoFactor.verify(challenge, await codeAt(secret, clock), '198.51.100.1'))).toBe(
      'RATE_LIMITED',
    );
    for (let n = 0; n < 5; n += 1) await reasonOf(twoFactor.verify(challenge, String(200000 + n), '198.51.100.2'));
    // ...until the member's own count over every address is used up too.
    expect(await reasonOf(twoFactor.verify(challenge, await codeAt(secret, clock), '198.51.100.3'))).toBe(
      'RATE_LIMITED',
    );
  });

  test('when an owner requires two-factor, then a member without it must set it up at sign-in, and cannot turn it off', async () => {
    const owner = await addMember('owner');
    const person = await addMember('member', owner.orgId);
    await expect(twoFactor.setRequired(person.actor, true)).rejects.toMatchObject({
      extensions: { code: 'FORBIDDEN' },
    });
    await twoFactor.setRequired(owner.actor, true);
    expect((await twoFactor.status(person.actor)).required).toBe(true);

    const { reason, challenge } = await challengeFor(person);
    expect(reason).toBe('TWO_FACTOR_ENROLLMENT_REQUIRED');
    // The enrollment challenge is not a code challenge: no session through verify.
    expect(await reasonOf(twoFactor.verify(challenge, '123456', 'a4'))).toBe('TWO_FACTOR_CHALLENGE_EXPIRED');
    const setup = await twoFactor.startEnrollment(challenge);
    expect(setup.otpauthUrl).toMatch(/^otpauth:\/\/totp\/.+secret=/);
    expect(setup.qrCode).toMatch(/^data:image\/svg\+xml;base64,/);
    const finished = await twoFactor.finishEnrollment(challenge, await codeAt(setup.secret, clock), 'a4');
    expect(finished.recoveryCodes).toHaveLength(10);
    expect((await challengeFor(person)).reason).toBe('TWO_FACTOR_REQUIRED');
    await expect(twoFactor.disable(person.actor, finished.recoveryCodes[0])).rejects.toMatchObject({
      message: 'Your organization requires two-factor sign-in; it cannot be turned off',
    });
    const changes = await identityDb
      .collection('audit_log')
      .find({ orgId: owner.orgId, action: /^two_factor\./ })
      .toArray();
    expect(changes.map((entry) => entry.action).sort()).toEqual(['two_factor.enabled', 'two_factor.required_changed']);
  });

  test('when the secret is stored, then it is sealed, not the secret an app reads', async () => {
    const person = await addMember();
    const setup = await twoFactor.startSetup(person.member);
    const stored = await identityDb.collection('two_factor').findOne({ _id: person.member.id as never });
    expect(JSON.stringify(stored)).not.toContain(setup.secret);
    expect(stored?.secret).toEqual({
      keyId: expect.any(String),
      iv: expect.any(String),
      tag: expect.any(String),
      data: expect.any(String),
    });
  });
});

describe('through the gateway', () => {
  /** A page of the web application: the admin API with its cookie. */
  function page() {
    const held: { cookie?: string; csrf?: string } = {};
    return async (query: string, variables: Record<string, unknown> = {}) => {
      const response = await fetch(`${stack.gateway.url}/admin/graphql`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(held.cookie ? { cookie: held.cookie } : {}),
          ...(held.csrf ? { 'x-csrf-token': held.csrf } : {}),
        },
        body: JSON.stringify({ query, variables }),
      });
      held.cookie = response.headers.get('set-cookie')?.split(';')[0] ?? held.cookie;
      const body = (await response.json()) as { data?: Record<string, any>; errors?: Array<Record<string, any>> }; // eslint-disable-line @typescript-eslint/no-explicit-any
      const csrf = body.data?.signIn?.csrfToken ?? body.data?.verifyTwoFactor?.csrfToken;
      if (csrf) held.csrf = csrf;
      return body;
    };
  }
  const SIGN_IN = 'mutation($e: String!, $p: String!) { signIn(email: $e, password: $p) { csrfToken } }';
  const now = () => new Date();

  test('when a member with two-factor signs in, then the password gives no session, only the code step, and the code opens one', async () => {
    const person = await addMember();
    const settings = page();
    await settings(SIGN_IN, { e: person.email, p: person.password });
    const setup = (await settings('mutation { startTwoFactorSetup { secret qrCode } }')).data?.startTwoFactorSetup;
    const enabled = await settings('mutation($c: String!) { confirmTwoFactorSetup(code: $c) { recoveryCodes } }', {
      c: await codeAt(setup.secret, now()),
    });
    expect(enabled.data?.confirmTwoFactorSetup.recoveryCodes).toHaveLength(10);
    expect((await settings('{ twoFactor { enabled required recoveryCodesLeft } }')).data?.twoFactor).toEqual({
      enabled: true,
      required: false,
      recoveryCodesLeft: 10,
    });

    const signIn = page();
    const halfway = await signIn(SIGN_IN, { e: person.email, p: person.password });
    expect(halfway.errors?.[0]).toMatchObject({
      message: 'Enter the code from your authenticator app',
      extensions: { code: 'UNAUTHENTICATED', reason: 'TWO_FACTOR_REQUIRED', challenge: expect.any(String) },
    });
    // The half-signed-in state is no session.
    expect((await signIn('{ me { member { email } } }')).data?.me).toBeNull();
    const challenge = halfway.errors?.[0].extensions.challenge as string;
    // The next step's code: the current one confirmed the setup, and a code is good once.
    const code = await codeAt(setup.secret, new Date(Date.now() + 30_000));
    const verified = await signIn(
      'mutation($ch: String!, $c: String!) { verifyTwoFactor(challenge: $ch, code: $c) { csrfToken member { email } } }',
      {
        ch: challenge,
        c: code,
      },
    );
    expect(verified.data?.verifyTwoFactor.member.email).toBe(person.email);
    expect((await signIn('{ me { member { email } } }')).data?.me).toEqual({ member: { email: person.email } });
  });
});
