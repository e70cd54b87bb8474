export { processEvent, startInboxWorker, type InboxWorkerDeps, type InboxWorkerOptions } from './inboxWorker';
