export { LeaseStore } from './data/leaseStore';
export { SyncStateStore, type SyncState } from './data/syncStateStore';
export { PlatformError, RateLimitedError, retryAfterMs } from './platformErrors';
export { PullSync, type PullSyncOptions, type SyncOutcome } from './pullSync';
export { PullWorker, type PullConnections, type PullWorkerOptions } from './pullWorker';
export * from './pullTypes';
export { DirectoryWriter, type DirectoryCalls, type WriteOutcome } from './directoryWriter';
export { hubspotConnector, type HubSpotOptions } from './hubspotConnector';
export { zendeskConnector, type ZendeskOptions } from './zendeskConnector';
