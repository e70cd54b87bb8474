import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const KEY_BYTES = 32;

/** A secret as stored: AES-256-GCM under a service's sealing key, bound to the record it belongs to. */
export interface SealedSecret {
  /** First hex digits of SHA-256 of the key that sealed it, to name a wrong key clearly. */
  keyId: string;
  iv: string;
  tag: string;
  data: string;
}

/** A sealing key (WEBHOOK_SECRET_KEY, INTEGRATIONS_SECRET_KEY): 32 bytes, as 64 hex digits or base64. */
export function parseSecretKey(raw: string): Buffer {
  const trimmed = raw.trim();
  const key = /^[0-9a-f]{64}$/i.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64');
  if (key.length !== KEY_BYTES)
    throw new Error('expected 32 bytes as 64 hex digits or base64 (e.g. openssl rand -hex 32)');
  return key;
}

const keyIdOf = (key: Buffer) => createHash('sha256').update(key).digest('hex').slice(0, 8);

/**
 * A new signing secret in the Standard Webhooks form, `whsec_` + base64 of 32 random bytes, which every
 * Standard Webhooks library accepts as is.
 */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * Encrypts secrets (webhook signing secrets, connected platforms' credentials), so that a database dump
 * alone cannot use them: the key lives in the service's configuration, never in the database. The
 * record's id is authenticated data, so a sealed secret copied onto another record does not open.
 */
export class SecretBox {
  private readonly keyId: string;

  /** `keyName` names the key's variable in errors (e.g. WEBHOOK_SECRET_KEY). */
  constructor(
    private readonly key: Buffer,
    private readonly keyName = 'sealing key',
  ) {
    this.keyId = keyIdOf(key);
  }

  seal(secret: string, recordId: string): SealedSecret {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(recordId));
    const data = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return {
      keyId: this.keyId,
      iv: iv.toString('base64'),
      tag: cipher.getAuthTag().toString('base64'),
      data: data.toString('base64'),
    };
  }

  open(sealed: SealedSecret, recordId: string): string {
    if (sealed.keyId !== this.keyId) {
      throw new Error(
        `the secret of ${recordId} was sealed with another ${this.keyName} (key id ${sealed.keyId}, configured ${this.keyId})`,
      );
    }
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(sealed.iv, 'base64'));
    decipher.setAAD(Buffer.from(recordId));
    decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(sealed.data, 'base64')), decipher.final()]).toString('utf8');
  }
}
