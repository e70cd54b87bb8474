import { parse, parseSecretKey, type ConfigField } from '@fi/shared';

/** Single sign-on settings of the identity service (docs/sso.md). */
export const ssoConfigSchema = {
  ssoSecretKey: {
    env: 'SSO_SECRET_KEY',
    doc: "key that encrypts organizations' OIDC client secrets at rest: 32 bytes as 64 hex digits or base64 (unset: single sign-on cannot be set up; `npm start` sets a development key)",
    default: null as Buffer | null,
    parse: parseSecretKey,
  },
  ssoAllowLoopbackHttp: {
    env: 'SSO_ALLOW_LOOPBACK_HTTP',
    doc: 'accept http:// identity providers on loopback addresses (127.0.0.0/8, ::1, localhost) besides https:// (development and tests only; `npm start` turns it on)',
    default: false,
    parse: parse.bool,
  },
  ssoDnsServers: {
    env: 'SSO_DNS_SERVERS',
    doc: "DNS servers that verify domains' TXT records, comma-separated (e.g. 1.1.1.1,8.8.8.8:53); unset: the system's",
    default: [] as string[],
    parse: (raw: string) =>
      raw
        .split(',')
        .map((server) => server.trim())
        .filter(Boolean),
  },
} satisfies Record<string, ConfigField<unknown>>;
