/**
 * Record ids as text: every record's id is a 24-hex-digit ObjectId that starts with its creation second.
 * Plain string work, so code that only checks or bounds ids (cursors, the gateway) loads no database driver.
 */

/** Ids are 24-hex-digit ObjectIds; anything else cannot exist, so it is "not found", never an error. */
export function isObjectId(id: string): boolean {
  return /^[0-9a-f]{24}$/i.test(id);
}

/** The smallest id of the second `at` falls in (hex): every record created in an earlier second has a smaller one. */
export function firstIdHexAt(at: Date): string {
  return `${secondHex(at)}${'0'.repeat(16)}`;
}

/** The largest id of the second `at` falls in (hex): every record created up to then has an id at most this. */
export function lastIdHexAt(at: Date): string {
  return `${secondHex(at)}${'f'.repeat(16)}`;
}

const secondHex = (at: Date) =>
  Math.floor(at.getTime() / 1000)
    .toString(16)
    .padStart(8, '0');
