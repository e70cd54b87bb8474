import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const KEY_BYTES = 32;

/** A secret as stored: AES-256-GCM under a key of the service's configuration, bound to its owner. */
export interface SealedSecret {
  /** Which key sealed it (the first hex digits of its SHA-256), so a wrong key is named, not guessed at. */
  keyId: string;
  iv: string;
  tag: string;
  data: string;
}

/** A key setting: 32 bytes, as 64 hex digits or base64. */
export function parseSecretKey(raw: string): Buffer {
  const trimmed = raw.trim();
  const key = /^[0-9a-f]{64}$/i.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64');
  if (key.length !== KEY_BYTES)
    throw new Error('expected 32 bytes as 64 hex digits or base64 (e.g. openssl rand -hex 32)');
  return key;
}

/**
 * Encrypts secrets a service must use again (a client secret it sends to an identity provider), so that a
 * database dump alone does not give them away: the key lives in the configuration, never in the database.
 * The owner's id is authenticated data, so a sealed secret copied onto another record does not open.
 */
export class SealedSecrets {
  private readonly keyId: string;

  /** `keyName` is the setting that holds the key, named when a secret was sealed under another. */
  constructor(
    private readonly key: Buffer,
    private readonly keyName: string,
  ) {
    this.keyId = createHash('sha256').update(key).digest('hex').slice(0, 8);
  }

  seal(secret: string, ownerId: string): SealedSecret {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(ownerId));
    const data = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return {
      keyId: this.keyId,
      iv: iv.toString('base64'),
      tag: cipher.getAuthTag().toString('base64'),
      data: data.toString('base64'),
    };
  }

  open(sealed: SealedSecret, ownerId: string): string {
    if (sealed.keyId !== this.keyId)
      throw new Error(
        `the secret of ${ownerId} was sealed with another ${this.keyName} (key id ${sealed.keyId}, configured ${this.keyId})`,
      );
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(sealed.iv, 'base64'));
    decipher.setAAD(Buffer.from(ownerId));
    decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(sealed.data, 'base64')), decipher.final()]).toString('utf8');
  }
}
