/**
 * How records of the three services recognise each other without copying data: each service stores
 * normalised keys of its own fields (lower-cased email, email domain, company or account name) and
 * matches on them. The rules are written in docs/api.md ("Links across services").
 */

/**
 * Mailbox providers anyone can sign up to: their domain says nothing about a person's company, so
 * it never links a contact to an account, and an account whose domain is one of them links nothing by domain.
 */
export const FREE_MAIL_DOMAINS: ReadonlySet<string> = new Set([
  'gmail.com',
  'googlemail.com',
  'yahoo.com',
  'yahoo.co.uk',
  'yahoo.fr',
  'yahoo.de',
  'ymail.com',
  'rocketmail.com',
  'hotmail.com',
  'hotmail.co.uk',
  'hotmail.fr',
  'hotmail.de',
  'outlook.com',
  'outlook.fr',
  'live.com',
  'live.co.uk',
  'msn.com',
  'aol.com',
  'icloud.com',
  'me.com',
  'mac.com',
  'proton.me',
  'protonmail.com',
  'pm.me',
  'tutanota.com',
  'gmx.de',
  'gmx.net',
  'gmx.com',
  'web.de',
  't-online.de',
  'mail.com',
  'mail.ru',
  'yandex.ru',
  'yandex.com',
  'zoho.com',
  'fastmail.com',
  'hey.com',
  'qq.com',
  '163.com',
  '126.com',
  'orange.fr',
  'free.fr',
  'laposte.net',
  'libero.it',
  'comcast.net',
  'att.net',
  'verizon.net',
]);

/** Lower-cased, trimmed text, or null when there is none. */
export function matchKey(text: string | null | undefined): string | null {
  const key = text?.trim().toLowerCase();
  return key ? key : null;
}

/** The lower-cased domain of an email address (after its last `@`), or null. */
export function emailDomainOf(email: string | null | undefined): string | null {
  const key = matchKey(email);
  if (!key) return null;
  const at = key.lastIndexOf('@');
  return at >= 0 && at < key.length - 1 ? key.slice(at + 1) : null;
}

/** A domain that can name a company: set, and not a free-mail provider's. */
export function companyDomainKey(domain: string | null | undefined): string | null {
  const key = matchKey(domain);
  return key && !FREE_MAIL_DOMAINS.has(key) ? key : null;
}

/** The company domain of an email address, or null for none or a free-mail address. */
export function companyDomainOfEmail(email: string | null | undefined): string | null {
  return companyDomainKey(emailDomainOf(email));
}
