import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

const ALGORITHM = "aes-256-gcm";
const IV_BYTES = 12;

export interface Sealed {
  iv: Buffer;
  authTag: Buffer;
  ciphertext: Buffer;
}

/**
 * AES-256-GCM with a random 96-bit IV per secret. The associated data binds a ciphertext to its account
 * and provider, so a row copied to another account (or provider) fails to decrypt instead of leaking.
 */
export class CredentialCipher {
  private constructor(private readonly key: Buffer) {}

  /** The master key is 32 bytes, given as 64 hex characters or base64. */
  static fromMasterKey(encoded: string): CredentialCipher {
    const key = /^[0-9a-fA-F]{64}$/.test(encoded)
      ? Buffer.from(encoded, "hex")
      : Buffer.from(encoded, "base64");
    if (key.length !== 32) throw new Error("BYOK_MASTER_KEY must be 32 bytes (64 hex characters or base64)");
    return new CredentialCipher(key);
  }

  seal(plaintext: string, associated: string): Sealed {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv(ALGORITHM, this.key, iv);
    cipher.setAAD(Buffer.from(associated));
    const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
    return { iv, authTag: cipher.getAuthTag(), ciphertext };
  }

  open(sealed: Sealed, associated: string): string {
    const decipher = createDecipheriv(ALGORITHM, this.key, sealed.iv);
    decipher.setAAD(Buffer.from(associated));
    decipher.setAuthTag(sealed.authTag);
    return Buffer.concat([decipher.update(sealed.ciphertext), decipher.final()]).toString("utf8");
  }
}

export function associatedData(accountId: string, providerId: string): string {
  return `${accountId}\u0000${providerId}`;
}

/** Enough to recognise a key, never enough to use it: the first 3 and last 4 characters of long keys. */
export function maskProviderKey(secret: string): string {
  if (secret.length < 16) return `...${secret.slice(-2)}`;
  return `${secret.slice(0, 3)}...${secret.slice(-4)}`;
}
