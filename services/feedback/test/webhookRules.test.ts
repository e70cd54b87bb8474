import { Webhook } from 'standardwebhooks';
import { ChangeVerdicts } from '../src/changes/changeVerdicts';
import { nextAttemptAt, retryDelayMs } from '../src/webhooks/retrySchedule';
import { newSigningSecret, parseSecretKey, SecretBox } from '@fi/shared';
import { checkTarget, refusalOf } from '../src/webhooks/targetPolicy';

const refuse = { allowHttp: false, privateTargets: 'refuse' as const };
const loopbackOnly = { allowHttp: true, privateTargets: 'loopback' as const };

describe('refusalOf', () => {
  test.each([
    '10.0.0.1',
    '172.16.5.4',
    '192.168.1.1',
    '127.0.0.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fd12:3456::1',
    'fe80::1',
    'ff02::1',
    '::ffff:10.0.0.1',
    '::ffff:a00:1',
    '::ffff:127.0.0.1',
    '64:ff9b::a9fe:a9fe',
    '2001:db8::1',
  ])('when the address is %s, then it is refused', (address) => {
    expect(refusalOf(address, refuse)).toMatch(/is a private, loopback, link-local or reserved address/);
  });

  test.each(['93.184.215.14', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8'])(
    'when the address is public (%s), then it is allowed',
    (address) => {
      expect(refusalOf(address, refuse)).toBeNull();
    },
  );

  test.each([
    'https://[::ffff:0:127.0.0.1]/',
    'https://[::127.0.0.1]/',
    'https://[::ffff:7f00:1]/',
    'https://[64:ff9b:1::7f00:1]/',
    'https://[64:ff9b::10.0.0.1]/',
    'https://[2002:7f00:1::]/',
    'https://[2002:a9fe:a9fe::1]/',
  ])('when a URL reaches a private IPv4 address through an IPv6 form (%s), then it is refused', async (url) => {
    await expect(checkTarget(url, refuse)).rejects.toThrow(/webhooks go to public addresses only/);
  });

  test.each(['::ffff:0:8.8.8.8', '2002:808:808::1', '64:ff9b::808:808'])(
    'when an IPv6 form carries a public IPv4 address (%s), then it is allowed',
    (address) => {
      expect(refusalOf(address, refuse)).toBeNull();
    },
  );

  test('when loopback is allowed, then only loopback passes among non-public addresses', () => {
    expect(refusalOf('127.0.0.1', loopbackOnly)).toBeNull();
    expect(refusalOf('::1', loopbackOnly)).toBeNull();
    expect(refusalOf('::ffff:127.0.0.1', loopbackOnly)).toBeNull();
    expect(refusalOf('10.0.0.1', loopbackOnly)).not.toBeNull();
    expect(refusalOf('169.254.169.254', loopbackOnly)).not.toBeNull();
  });
});

describe('retry schedule', () => {
  const schedule = { baseMs: 5_000, maxDelayMs: 3_600_000, windowMs: 86_400_000 };

  test('when attempts fail, then delays double between half and all of the exponential value, up to the cap', () => {
    expect(retryDelayMs(1, schedule, () => 0)).toBe(2_500);
    expect(retryDelayMs(1, schedule, () => 1)).toBe(5_000);
    expect(retryDelayMs(4, schedule, () => 0)).toBe(20_000);
    expect(retryDelayMs(30, schedule, () => 1)).toBe(3_600_000);
    expect(retryDelayMs(30, schedule, () => 0)).toBe(1_800_000);
  });

  test('when every attempt fails, then retries go on for the whole window and stop after it', () => {
    const first = new Date(0);
    let now = first;
    let attempts = 1;
    for (
      let next = nextAttemptAt(attempts, first, now, schedule);
      next;
      next = nextAttemptAt(attempts, first, now, schedule)
    ) {
      now = next;
      attempts += 1;
    }
    expect(now.getTime()).toBeGreaterThanOrEqual(schedule.windowMs);
    expect(attempts).toBeGreaterThan(25);
    expect(attempts).toBeLessThan(60);
  });
});

describe('SecretBox', () => {
  const key = parseSecretKey('ab'.repeat(32));

  test('when a secret is sealed, then only the same key and endpoint open it, and it signs what standardwebhooks verifies', () => {
    const secret = newSigningSecret();
    const sealed = new SecretBox(key, 'WEBHOOK_SECRET_KEY').seal(secret, 'endpoint-1');
    expect(JSON.stringify(sealed)).not.toContain(secret.slice(6));
    expect(new SecretBox(key).open(sealed, 'endpoint-1')).toBe(secret);
    expect(() => new SecretBox(key).open(sealed, 'endpoint-2')).toThrow();
    expect(() =>
      new SecretBox(parseSecretKey('cd'.repeat(32)), 'WEBHOOK_SECRET_KEY').open(sealed, 'endpoint-1'),
    ).toThrow(/sealed with another WEBHOOK_SECRET_KEY/);
    const webhook = new Webhook(secret);
    const when = new Date();
    const headers = {
      'webhook-id': 'evt_1',
      'webhook-timestamp': String(Math.floor(when.getTime() / 1000)),
      'webhook-signature': webhook.sign('evt_1', when, '{}'),
    };
    expect(webhook.verify('{}', headers)).toEqual({});
  });

  test.each(['', 'short', 'zz'.repeat(32), Buffer.alloc(31).toString('base64')])(
    'when the key is %j, then it is refused',
    (raw) => {
      expect(() => parseSecretKey(raw)).toThrow(/expected 32 bytes/);
    },
  );

  test('when the key is base64 of 32 bytes, then it is accepted', () => {
    expect(parseSecretKey(Buffer.alloc(32, 7).toString('base64'))).toEqual(Buffer.alloc(32, 7));
  });
});

describe('ChangeVerdicts.pastGrace', () => {
  const noItems = { changeEvidence: () => Promise.resolve(null), deltaOfExisting: () => Promise.resolve([]) };
  const verdicts = new ChangeVerdicts(noItems, 60_000);
  const now = new Date('2026-01-01T12:00:00Z');
  const ago = (ms: number) => new Date(now.getTime() - ms);

  test('when a change is older than the grace period, then its writer is done with it', () => {
    expect(verdicts.pastGrace({ occurredAt: ago(61_000) }, now)).toBe(true);
    expect(verdicts.pastGrace({ occurredAt: ago(59_000) }, now)).toBe(false);
  });

  test('when its writer still holds it (a large import batch), then it is not past grace until the hold ends', () => {
    expect(verdicts.pastGrace({ occurredAt: ago(300_000), heldUntil: ago(-1_000) }, now)).toBe(false);
    expect(verdicts.pastGrace({ occurredAt: ago(300_000), heldUntil: ago(1_000) }, now)).toBe(true);
    expect(verdicts.pastGrace({ occurredAt: ago(30_000), heldUntil: ago(1_000) }, now)).toBe(false);
  });
});
