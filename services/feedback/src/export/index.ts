// Bulk exports of the organization's feedback (see docs/export.md): the job's reads, the worker, and the
// events that announce an export's end.
export { EXPORT_EVENT_TYPES, exportEvent, type ExportEventType } from './exportEvents';
export { FEEDBACK_EXPORT_COLUMNS, feedbackExportSource } from './feedbackExport';
export { feedbackExports, startFeedbackExportWorker } from './feedbackExports';
