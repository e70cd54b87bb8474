import { parse, parseSecretKey, type ConfigField } from '@fi/shared';

/** Two-factor sign-in's settings of the identity service (docs/sso.md, Two-factor sign-in). */
export const twoFactorConfigSchema = {
  twoFactorSecretKey: {
    env: 'TWO_FACTOR_SECRET_KEY',
    doc: "key that encrypts members' TOTP secrets at rest: 32 bytes as 64 hex digits or base64 (unset: two-factor sign-in cannot be set up; `npm start` sets a development key)",
    default: null as Buffer | null,
    parse: parseSecretKey,
  },
  twoFactorChallengeMinutes: {
    env: 'TWO_FACTOR_CHALLENGE_MINUTES',
    doc: 'how long a sign-in waits for its second step (the code) after the password or single sign-on',
    default: 5,
    parse: parse.int(1, 30),
  },
} satisfies Record<string, ConfigField<unknown>>;
