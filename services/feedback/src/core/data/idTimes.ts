import { Types } from 'mongoose';

/**
 * The smallest id of the second `seconds` before the one `id` was made in (ids start with their creation
 * second): ids made by other processes in the same seconds need not be written in id order, so a reader
 * that follows the items by id reads that far back again.
 */
export function idSecondsBefore(id: string, seconds: number): string {
  const madeAt = Math.floor(new Types.ObjectId(id).getTimestamp().getTime() / 1000);
  return Types.ObjectId.createFromTime(madeAt - seconds).toHexString();
}
