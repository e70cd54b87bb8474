import { clearedSessionCookie, sessionCookie, sessionTokenOf } from '../src/http/sessionCookie';
import { requireAdmin, requireCanAssign } from '../src/domain/roles';

describe('the session cookie', () => {
  test('when a session starts, then its cookie is HttpOnly, SameSite=Strict, lives until the session ends, and is Secure unless told', () => {
    const ends = new Date(Date.now() + 3_600_000);
    expect(sessionCookie('tok', ends, true)).toMatch(
      /^fi_session=tok; Path=\/; HttpOnly; SameSite=Strict; Max-Age=(3599|3600); Secure$/,
    );
    expect(sessionCookie('tok', ends, false)).not.toContain('Secure');
    expect(clearedSessionCookie(true)).toBe('fi_session=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0; Secure');
  });

  test('when a request carries several cookies, then the session token is found among them', () => {
    expect(sessionTokenOf({ cookie: 'theme=dark; fi_session=abc-def; other=1' })).toBe('abc-def');
    expect(sessionTokenOf({ cookie: 'theme=dark' })).toBeUndefined();
    expect(sessionTokenOf({})).toBeUndefined();
  });
});

describe('roles', () => {
  test('when members and viewers manage, then they are refused; only owners touch the owner role', () => {
    expect(() => requireAdmin('viewer', 'create API keys')).toThrow('Only owners and admins can create API keys');
    expect(() => requireAdmin('member', 'create API keys')).toThrow('Only owners and admins can create API keys');
    expect(() => requireAdmin('admin', 'create API keys')).not.toThrow();
    expect(() => requireCanAssign('admin', 'member', 'owner')).toThrow(
      'Only owners can grant or change the owner role',
    );
    expect(() => requireCanAssign('admin', 'owner', 'viewer')).toThrow(
      'Only owners can grant or change the owner role',
    );
    expect(() => requireCanAssign('owner', 'member', 'owner')).not.toThrow();
    expect(() => requireCanAssign('admin', 'viewer', 'member')).not.toThrow();
  });
});
