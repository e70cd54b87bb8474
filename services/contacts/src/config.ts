import { loadConfig, serviceConfigSchema } from '@fi/shared';

export const contactsConfigSchema = serviceConfigSchema({ port: 4002, database: 'contacts' });

export const loadContactsConfig = (env: NodeJS.ProcessEnv = process.env) => loadConfig(contactsConfigSchema, env);
