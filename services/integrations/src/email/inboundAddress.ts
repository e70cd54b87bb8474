import { isConnectionToken } from '../domain/connectionTokens';

/** The local part every email connection's address starts with: `feedback+<token>@<domain>`. */
const LOCAL_PREFIX = 'feedback+';

/** The address mail to an email connection is sent to. */
export function inboundAddress(token: string, domain: string): string {
  return `${LOCAL_PREFIX}${token}@${domain}`;
}

/**
 * The connection token a recipient address names, or null when it is not one of ours: another domain or
 * another local part. Compared without case: domains are case-insensitive (RFC 5321), and some mail
 * systems change the case of a local part, which is why tokens are lower-case hex.
 */
export function tokenOfAddress(address: string, domain: string): string | null {
  const at = address.lastIndexOf('@');
  if (at < 0 || address.slice(at + 1).toLowerCase() !== domain.toLowerCase()) return null;
  const local = address.slice(0, at).toLowerCase();
  if (!local.startsWith(LOCAL_PREFIX)) return null;
  const token = local.slice(LOCAL_PREFIX.length);
  return isConnectionToken(token) ? token : null;
}
