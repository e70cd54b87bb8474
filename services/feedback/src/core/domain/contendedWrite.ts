import { unavailableError } from '@fi/shared';

/**
 * Rounds a change of one item may take against concurrent writers of the same item: each round lost
 * means another writer's change was applied, so this bounds the work per request, not progress.
 */
export const MAX_CHANGE_ROUNDS = 20;

/** The item kept changing under this request for MAX_CHANGE_ROUNDS rounds: the client should retry. */
export const itemBusy = () => unavailableError('The item is being changed by other requests; retry shortly');
