// The change stream: the only seam between the item core and the features. The core records each change
// through its ChangeEvents port before writing it; the stream counts it, and hands it to the listeners
// that want it (the relay, in the worker process). See services/feedback/README.md.
export { changeStream, countChange, type ChangeListener, type ChangeStream } from './changeStream';
export { startChangeRelay } from './changeRelay';
export { ChangeVerdicts } from './changeVerdicts';
export { ChangeEvidenceStore } from './data/changeEvidence';
export { ChangeOutbox, type OpenImports, type RecordedChange, type StreamChange } from './data/changeOutbox';
