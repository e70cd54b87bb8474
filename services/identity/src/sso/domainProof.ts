import { Resolver } from 'node:dns/promises';

/** The TXT record an owner publishes to prove a domain: its name and the value it must hold. */
export const verificationRecord = (domain: string, token: string) => ({
  name: `_fi-sso.${domain}`,
  value: `fi-sso-verification=${token}`,
});

/**
 * Whether the domain's verification record holds the token. Looked up through the system's resolvers
 * (or SSO_DNS_SERVERS), with a bounded wait; a name that does not exist is simply not proven.
 */
export async function domainProven(domain: string, token: string, servers: string[]): Promise<boolean> {
  const resolver = new Resolver({ timeout: 3_000, tries: 2 });
  if (servers.length > 0) resolver.setServers(servers);
  const { name, value } = verificationRecord(domain, token);
  try {
    const records = await resolver.resolveTxt(name);
    return records.some((chunks) => chunks.join('') === value);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ENOTFOUND' || code === 'ENODATA') return false;
    throw error;
  }
}
