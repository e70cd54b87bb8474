import { checkNewPassword, hashPassword, verifyPassword } from '../src/domain/passwords';

describe('password hashing', () => {
  test('when a password is hashed, then only that password matches, and the hash names scrypt and its parameters', async () => {
    const hash = await hashPassword('correct horse battery staple');
    expect(hash).toMatch(/^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(await verifyPassword('correct horse battery staple', hash)).toBe(true);
    expect(await verifyPassword('correct horse battery stapler', hash)).toBe(false);
    // A fresh salt each time: the same password never gives the same hash.
    expect(await hashPassword('correct horse battery staple')).not.toBe(hash);
  });

  test('when the stored hash is malformed, then nothing matches it', async () => {
    expect(await verifyPassword('anything at all', 'md5$abc')).toBe(false);
    expect(await verifyPassword('anything at all', '')).toBe(false);
  });

  test('when a new password is too short or too long, then the rule is named', () => {
    expect(() => checkNewPassword('short')).toThrow('The password must have at least 12 characters');
    expect(() => checkNewPassword('x'.repeat(257))).toThrow('The password must have at most 256 characters');
    expect(() => checkNewPassword('twelve chars')).not.toThrow();
  });
});
