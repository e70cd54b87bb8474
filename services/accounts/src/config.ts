import { loadConfig, serviceConfigSchema } from '@fi/shared';

export const accountsConfigSchema = serviceConfigSchema({ port: 4003, database: 'accounts' });

export const loadAccountsConfig = (env: NodeJS.ProcessEnv = process.env) => loadConfig(accountsConfigSchema, env);
