import { commonConfigSchema, loadConfig, mongoClientConfigSchema, parse } from '@fi/shared';
import { ssoConfigSchema } from './sso';
import { twoFactorConfigSchema } from './twoFactor';

export const identityConfigSchema = {
  port: { env: 'PORT', doc: 'HTTP port of the identity service', default: 4004, parse: parse.port },
  host: { env: 'HOST', doc: 'interface to listen on', default: '127.0.0.1', parse: parse.string },
  mongodbUri: { env: 'MONGODB_URI', doc: 'MongoDB connection string of the identity service', parse: parse.mongoUri },
  mongodbDb: {
    env: 'MONGODB_DB',
    doc: 'database name of the identity service',
    default: 'identity',
    parse: parse.string,
  },
  sessionIdleMinutes: {
    env: 'SESSION_IDLE_MINUTES',
    doc: 'a session unused this long ends',
    default: 30,
    parse: parse.int(1, 10_080),
  },
  sessionAbsoluteHours: {
    env: 'SESSION_ABSOLUTE_HOURS',
    doc: 'a session ends this long after sign-in however much it is used',
    default: 12,
    parse: parse.int(1, 720),
  },
  cookieSecure: {
    env: 'COOKIE_SECURE',
    doc: 'mark the session cookie Secure (HTTPS only); on unless the service runs for development (npm start)',
    default: true,
    parse: parse.bool,
  },
  signInLimitPerAccount: {
    env: 'SIGN_IN_LIMIT_PER_ACCOUNT',
    doc: 'failed sign-ins allowed per account from one address per SIGN_IN_WINDOW_MINUTES (other addresses are not locked out)',
    default: 5,
    parse: parse.int(1, 1_000),
  },
  signInLimitPerAddress: {
    env: 'SIGN_IN_LIMIT_PER_ADDRESS',
    doc: 'failed sign-ins allowed from one address, whatever the account, per SIGN_IN_WINDOW_MINUTES',
    default: 50,
    parse: parse.int(1, 100_000),
  },
  signInChecksPerAddress: {
    env: 'SIGN_IN_CHECKS_PER_ADDRESS',
    doc: 'password checks (32 MiB of scrypt each) one address may have running at once in one identity process; more are refused RATE_LIMITED before hashing',
    default: 2,
    parse: parse.int(1, 1_000),
  },
  signInWindowMinutes: {
    env: 'SIGN_IN_WINDOW_MINUTES',
    doc: 'window in which failed sign-ins are counted',
    default: 15,
    parse: parse.int(1, 1_440),
  },
  publicUrl: {
    env: 'PUBLIC_URL',
    doc: 'address of the web application, where invitation and password-reset links point',
    default: 'http://localhost:4000',
    parse: parse.url('http:', 'https:'),
  },
  smtpUrl: {
    env: 'SMTP_URL',
    doc: 'SMTP server that mails invitation and password-reset links, e.g. smtps://user:password@smtp.example.com:465 (unset: links are logged, development only)',
    default: '',
    parse: parse.url('smtp:', 'smtps:'),
  },
  mailFrom: {
    env: 'MAIL_FROM',
    doc: 'sender of those mails',
    default: 'Feedback Intelligence <no-reply@localhost>',
    parse: parse.string,
  },
  invitationTtlHours: {
    env: 'INVITATION_TTL_HOURS',
    doc: 'how long an invitation link can be used',
    default: 72,
    parse: parse.int(1, 720),
  },
  passwordResetTtlMinutes: {
    env: 'PASSWORD_RESET_TTL_MINUTES',
    doc: 'how long a password-reset link can be used',
    default: 30,
    parse: parse.int(5, 1_440),
  },
  nodeEnv: {
    env: 'NODE_ENV',
    doc: 'production: links are never logged (SMTP_URL is needed to send them)',
    default: 'development',
    parse: parse.string,
  },
  ...ssoConfigSchema,
  ...twoFactorConfigSchema,
  ...mongoClientConfigSchema,
  ...commonConfigSchema,
};

export type IdentityConfig = ReturnType<typeof loadIdentityConfig>;

export const loadIdentityConfig = (env: NodeJS.ProcessEnv = process.env) => loadConfig(identityConfigSchema, env);
