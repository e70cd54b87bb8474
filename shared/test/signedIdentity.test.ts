import { parseSigningKeys, signIdentity, verifyIdentity, type Principal } from '../src/auth/signedIdentity';

const principal: Principal = {
  ref: 'key_0123456789abcdef',
  kind: 'key',
  orgId: 'org-a',
  role: 'member',
  tier: 'pro',
  readOnly: false,
  rateLimitPerMinute: null,
};
const secret = (c: string) => c.repeat(32);

describe('signed identity', () => {
  const current = parseSigningKeys(`k2:${secret('b')}`);
  const both = parseSigningKeys(`k2:${secret('b')},k1:${secret('a')}`);
  const old = parseSigningKeys(`k1:${secret('a')}`);

  test('when a token is signed with the first key, then every service listing that key reads its principals', () => {
    const token = signIdentity(both, [principal], 30_000);
    expect(verifyIdentity(current, token)).toEqual({ ok: true, principals: [principal] });
    expect(verifyIdentity(both, token)).toEqual({ ok: true, principals: [principal] });
  });

  test('when keys rotate, then a token of the old key is accepted while listed and refused once retired', () => {
    const fromOldGateway = signIdentity(old, [principal], 30_000);
    expect(verifyIdentity(both, fromOldGateway).ok).toBe(true);
    expect(verifyIdentity(current, fromOldGateway)).toEqual({ ok: false, reason: 'unknown-key' });
  });

  test('when a token is expired, tampered with, forged under a known key id, or missing, then it is refused with the reason', () => {
    const now = 1_000_000;
    expect(verifyIdentity(current, signIdentity(current, [principal], 1_000, now), now + 1_000)).toEqual({
      ok: false,
      reason: 'expired',
    });
    const [version, kid, payload, signature] = signIdentity(current, [principal], 30_000).split('.');
    const otherOrg = Buffer.from(
      JSON.stringify({ exp: Date.now() + 30_000, p: [{ ...principal, orgId: 'org-b' }] }),
    ).toString('base64url');
    expect(verifyIdentity(current, [version, kid, otherOrg, signature].join('.'))).toEqual({
      ok: false,
      reason: 'bad-signature',
    });
    const forged = signIdentity(parseSigningKeys(`k2:${secret('x')}`), [principal], 30_000);
    expect(verifyIdentity(current, forged)).toEqual({ ok: false, reason: 'bad-signature' });
    expect(verifyIdentity(current, `${version}.${kid}.${payload}`)).toEqual({ ok: false, reason: 'malformed' });
    expect(verifyIdentity(current, undefined)).toEqual({ ok: false, reason: 'missing' });
  });

  test('when the configured keys are bad, then the problem is named', () => {
    expect(() => parseSigningKeys('')).toThrow('expected at least one KEY_ID:SECRET');
    expect(() => parseSigningKeys('k1:short')).toThrow('the secret of key "k1" is shorter than 32 characters');
    expect(() => parseSigningKeys(`bad id:${secret('a')}`)).toThrow('KEY_ID:SECRET');
    expect(() => parseSigningKeys(`k1:${secret('a')},k1:${secret('b')}`)).toThrow('key ids must be distinct');
  });
});
