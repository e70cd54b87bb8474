// The accounts service's public face: what the CLI, the tests and the bench may use. The process entry is main.ts.
export { accountsConfigSchema, loadAccountsConfig } from './config';
export { ACCOUNTS_SCHEMA_PATH, startAccountsService } from './server';
export { createAccountRepository } from './data/accountRepository';
export { accountKeyBackfill } from './data/accountKeyBackfill';
export { checkAccount } from './domain/accountRules';
