import { Types } from 'mongoose';
import { isObjectId, lastIdHexAt } from '../ids';

export function objectIdOrNull(id: string): Types.ObjectId | null {
  return isObjectId(id) ? new Types.ObjectId(id) : null;
}

/** A new id, unique and increasing with time, in the 24-hex-digit form every record uses. */
export function newObjectIdHex(): string {
  return new Types.ObjectId().toHexString();
}

/**
 * The largest id of the second `at` falls in: every record created up to then has an id at most this (ids
 * start with their creation second), every record created in a later second a larger one.
 */
export function idBoundAt(at: Date): Types.ObjectId {
  return new Types.ObjectId(lastIdHexAt(at));
}
