// The embedded database and process helpers, apart from the commands so that importing them loads no service.
export { ensureFerretDb, FERRETDB_VERSION, startFerretDb, type EmbeddedMongo } from './ferretdb';
export { findGo, installedTool, machineCachePath } from './goTools';
export { freePort } from './freePort';
export { stopChild } from './stopChild';
