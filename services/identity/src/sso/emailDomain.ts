import { badRequest } from '@fi/shared';

/** A DNS name of at least two labels, letters, digits and hyphens (IDNs in their xn-- form). */
const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;

/** The domain, lower-cased, or BAD_REQUEST naming it. */
export function checkDomain(domain: string): string {
  const normalized = domain.trim().toLowerCase().replace(/\.$/, '');
  if (!DOMAIN.test(normalized))
    throw badRequest(`${JSON.stringify(domain.slice(0, 100))} is not a domain name (e.g. example.com)`, {
      argument: 'domain',
    });
  return normalized;
}

/** The part after the last @ of a checked email, lower-cased. */
export const domainOf = (email: string): string => email.slice(email.lastIndexOf('@') + 1).toLowerCase();
