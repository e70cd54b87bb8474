import { createHash, randomBytes } from 'node:crypto';

/**
 * The token in a connection's URL or address: 160 random bits in lower-case hex, so it survives mail
 * systems that change the case of an address. Only its hash is stored: the database alone cannot receive
 * as a connection.
 */
export const newConnectionToken = (): string => randomBytes(20).toString('hex');

export const tokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');

/** A token as it can appear in a URL or address; anything else is looked up nowhere. */
export const isConnectionToken = (value: string): boolean => /^[0-9a-f]{40}$/.test(value);
