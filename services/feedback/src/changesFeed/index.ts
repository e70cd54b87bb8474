// The changes feed (`feedbackChanges`): what changed in the organization's feedback since a cursor, for
// clients that keep a copy (see docs/export.md).
export { feedbackChangeFeed } from './feedbackChangeFeed';
