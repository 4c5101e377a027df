import { createCipheriv, createDecipheriv, createHmac, randomBytes } from "node:crypto";

const ALGORITHM = "aes-256-gcm";
const IV_BYTES = 12;
/** What the key id is an HMAC of: the id names a key without revealing anything usable about it. */
const KEY_ID_LABEL = "model-gateway byok key id v1";

export interface Sealed {
  /** Which master key sealed it (`keyIdOf`). */
  keyId: string;
  iv: Buffer;
  authTag: Buffer;
  ciphertext: Buffer;
}

/** A stored secret: rows sealed before key ids were recorded have none. */
export interface StoredSealed extends Omit<Sealed, "keyId"> {
  keyId: string | null;
}

/** A secret this gateway cannot open: never garbage, always this error naming the key id involved. */
export class CredentialKeyError extends Error {
  override name = "CredentialKeyError";
}

/**
 * AES-256-GCM with a random 96-bit IV per secret. The associated data binds a ciphertext to its account
 * and provider, so a row copied to another account (or provider) fails to decrypt instead of leaking.
 *
 * Rotation: the current key (BYOK_MASTER_KEY) seals and opens; a previous key (BYOK_MASTER_KEY_PREVIOUS)
 * only opens, while the re-seal pass (reseal.ts) moves every row to the current key.
 */
export class CredentialCipher {
  readonly currentKeyId: string;
  readonly #keys: Map<string, Buffer>;

  private constructor(
    private readonly current: Buffer,
    previous: Buffer | undefined,
  ) {
    this.currentKeyId = keyIdOf(current);
    this.#keys = new Map([[this.currentKeyId, current]]);
    if (previous) this.#keys.set(keyIdOf(previous), previous);
  }

  /** The master keys are 32 bytes, given as 64 hex characters or base64. */
  static fromMasterKeys(current: string, previous?: string): CredentialCipher {
    const previousKey =
      previous === undefined ? undefined : decodeMasterKey(previous, "BYOK_MASTER_KEY_PREVIOUS");
    const currentKey = decodeMasterKey(current, "BYOK_MASTER_KEY");
    if (previousKey?.equals(currentKey))
      throw new Error("BYOK_MASTER_KEY_PREVIOUS must differ from BYOK_MASTER_KEY");
    return new CredentialCipher(currentKey, previousKey);
  }

  static fromMasterKey(encoded: string): CredentialCipher {
    return CredentialCipher.fromMasterKeys(encoded);
  }

  /** The ids of every key this cipher opens with, the current one first. */
  get keyIds(): string[] {
    return [...this.#keys.keys()];
  }

  holds(keyId: string): boolean {
    return this.#keys.has(keyId);
  }

  seal(plaintext: string, associated: string): Sealed {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv(ALGORITHM, this.current, iv);
    cipher.setAAD(Buffer.from(associated));
    const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
    return { keyId: this.currentKeyId, iv, authTag: cipher.getAuthTag(), ciphertext };
  }

  /**
   * Opens with the key the row names; a row without a key id (sealed before ids were stored) with each
   * held key in turn. GCM authenticates, so a wrong key is an error, never a wrong plaintext.
   */
  open(sealed: StoredSealed, associated: string): string {
    if (sealed.keyId !== null) {
      const key = this.#keys.get(sealed.keyId);
      if (!key) throw new CredentialKeyError(unknownKeyMessage(sealed.keyId, this.keyIds));
      return openWith(key, sealed, associated, sealed.keyId);
    }
    for (const key of this.#keys.values()) {
      const opened = tryOpen(key, sealed, associated);
      if (opened !== undefined) return opened;
    }
    throw new CredentialKeyError(
      `a BYOK credential sealed before key ids were stored opens with none of the keys held (${this.keyIds.join(", ")})`,
    );
  }
}

/** A short public name of a master key: the first 16 hex characters of an HMAC under it. */
export function keyIdOf(key: Buffer): string {
  return createHmac("sha256", key).update(KEY_ID_LABEL).digest("hex").slice(0, 16);
}

export function decodeMasterKey(encoded: string, variable: string): Buffer {
  const key = /^[0-9a-fA-F]{64}$/.test(encoded)
    ? Buffer.from(encoded, "hex")
    : Buffer.from(encoded, "base64");
  if (key.length !== 32) throw new Error(`${variable} must be 32 bytes (64 hex characters or base64)`);
  return key;
}

function openWith(key: Buffer, sealed: StoredSealed, associated: string, keyId: string): string {
  const opened = tryOpen(key, sealed, associated);
  if (opened === undefined)
    throw new CredentialKeyError(
      `a BYOK credential failed authentication under key ${keyId} (tampered, or moved to another account or provider)`,
    );
  return opened;
}

function tryOpen(key: Buffer, sealed: StoredSealed, associated: string): string | undefined {
  try {
    const decipher = createDecipheriv(ALGORITHM, key, sealed.iv);
    decipher.setAAD(Buffer.from(associated));
    decipher.setAuthTag(sealed.authTag);
    return Buffer.concat([decipher.update(sealed.ciphertext), decipher.final()]).toString("utf8");
  } catch {
    return undefined;
  }
}

function unknownKeyMessage(keyId: string, held: string[]): string {
  return (
    `a BYOK credential is sealed under key ${keyId}, which this gateway does not hold (it holds ${held.join(", ")}): ` +
    "set that key as BYOK_MASTER_KEY_PREVIOUS until the re-seal pass has moved every row"
  );
}

export function associatedData(accountId: string, providerId: string): string {
  return `${accountId}\u0000${providerId}`;
}

/** Enough to recognise a key, never enough to use it: the first 3 and last 4 characters of long keys. */
export function maskProviderKey(secret: string): string {
  if (secret.length < 16) return `...${secret.slice(-2)}`;
  return `${secret.slice(0, 3)}...${secret.slice(-4)}`;
}
