import type { Role } from './sessionQueries';

/**
 * What the page offers each role. The identity service enforces the same rules on every request; this
 * only spares a person buttons that would be refused.
 */
export const canManageKeys = (role: Role) => role === 'owner' || role === 'admin';
export const canManageMembers = canManageKeys;
export const canReadAuditLog = canManageKeys;
/** Everyone but viewers changes contacts and accounts (the services refuse a viewer's change anyway). */
export const canChangeDirectory = (role: Role) => role !== 'viewer';
