import { TIME_ID_CURSOR_LENGTH, timeIdCursor } from '@fi/shared';

/** Where a page ended, in the list's order (createdAt descending, then id descending). */
export interface CursorPosition {
  createdAt: Date;
  id: string;
}

export const MAX_CURSOR_LENGTH = TIME_ID_CURSOR_LENGTH;

// The purpose is the salt cursors were always checked with: cursors clients hold stay valid.
const listCursor = timeIdCursor('fi-feedback-cursor', 'after', 'pass the nextCursor of a previous page unchanged');

export const encodeCursor = (position: CursorPosition): string =>
  listCursor.encode({ at: position.createdAt, id: position.id });

export function decodeCursor(cursor: string): CursorPosition {
  const { at, id } = listCursor.decode(cursor);
  return { createdAt: at, id };
}

/** Where a page that ends with `item` continues. */
export const cursorAfter = (item: CursorPosition): string => encodeCursor(item);

/** Whether `item` comes after `position` in the list's order (createdAt descending, then id descending). */
export function comesAfter(item: CursorPosition, position: CursorPosition): boolean {
  const time = item.createdAt.getTime() - position.createdAt.getTime();
  return time < 0 || (time === 0 && item.id < position.id);
}
