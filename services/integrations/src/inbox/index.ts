export { processEvents, startInboxWorker, type InboxWorkerDeps, type InboxWorkerOptions } from './inboxWorker';
