export { feedbackPort, MAX_ITEMS_PER_CALL, type AddedItem, type FeedbackPort, type NewItem } from './feedbackPort';
export { directoryPort, type DirectoryPort, type DirectoryService } from './directoryPort';
export { Refused, Unavailable, type ServiceCallOptions } from './serviceCall';
export { identityAudit } from './auditPort';
