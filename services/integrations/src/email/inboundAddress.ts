/** The local part every connection's address starts with: `feedback+<token>@<domain>`. */
const LOCAL_PREFIX = 'feedback+';

/** The address a mail to an email connection is sent to. */
export function inboundAddress(token: string, domain: string): string {
  return `${LOCAL_PREFIX}${token}@${domain}`;
}

/**
 * The connection token a recipient address names, or null when it is not one of ours: another domain or
 * another local part. The domain is compared without case (RFC 5321: domains are case-insensitive), the
 * token exactly (it is the secret part).
 */
export function tokenOfAddress(address: string, domain: string): string | null {
  const at = address.lastIndexOf('@');
  if (at < 0 || address.slice(at + 1).toLowerCase() !== domain.toLowerCase()) return null;
  const local = address.slice(0, at);
  if (local.slice(0, LOCAL_PREFIX.length).toLowerCase() !== LOCAL_PREFIX) return null;
  const token = local.slice(LOCAL_PREFIX.length);
  return /^[A-Za-z0-9_-]{16,128}$/.test(token) ? token : null;
}
