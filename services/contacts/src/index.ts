// The contacts service's public face: what the CLI, the tests and the bench may use. The process entry is main.ts.
export { contactsConfigSchema, loadContactsConfig } from './config';
export { CONTACTS_SCHEMA_PATH, startContactsService } from './server';
export { createContactRepository } from './data/contactRepository';
export { contactKeyBackfill } from './data/contactKeyBackfill';
export { checkContact } from './domain/contactRules';
export { contactsExportSource } from './export';
