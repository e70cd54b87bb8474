import { Types } from 'mongoose';

/** Ids are 24-hex-digit ObjectIds; anything else cannot exist, so it is "not found", never an error. */
export function isObjectId(id: string): boolean {
  return /^[0-9a-f]{24}$/i.test(id);
}

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
  return new Types.ObjectId(`${secondHex(at)}${'f'.repeat(16)}`);
}

/** The smallest id of the second `at` falls in (hex): every record created in an earlier second has a smaller one. */
export function firstIdHexAt(at: Date): string {
  return `${secondHex(at)}${'0'.repeat(16)}`;
}

const secondHex = (at: Date) =>
  Math.floor(at.getTime() / 1000)
    .toString(16)
    .padStart(8, '0');
