import type { Logger } from "@gw/logger";
import type { Kysely } from "kysely";
import type { KeysTables } from "../../db/schema.js";
import type { CredentialCipher } from "./cipher.js";
import { assertStoredKeysOpen } from "./key-check.js";
import { resealCredentials } from "./reseal.js";

export interface ByokRotation {
  /** Starts the background re-seal pass when rows are still under another key; stop() halts it. */
  start(): { stop(): Promise<void> };
}

/**
 * At start: refuses master keys that cannot open what is stored (key-check.ts); once the app runs,
 * re-seals in the background the rows still under another key. Every replica does this; the pass is
 * safe to run on all of them at once (reseal.ts), and one stopped half-way is resumed by the next start.
 */
export async function checkByokKeys(
  db: Kysely<KeysTables>,
  cipher: CredentialCipher | undefined,
  logger: Logger,
): Promise<ByokRotation> {
  const idle = { start: () => ({ stop: async () => {} }) };
  if (!cipher) return idle;
  const stored = await assertStoredKeysOpen(db, cipher);
  if (stored.stale === 0) return idle;
  logger.info({ stale: stored.stale, keyId: cipher.currentKeyId }, "BYOK credentials to re-seal");
  return { start: () => backgroundReseal(db, cipher, logger) };
}

function backgroundReseal(db: Kysely<KeysTables>, cipher: CredentialCipher, logger: Logger) {
  const abort = new AbortController();
  const pass = resealCredentials(db, cipher, { signal: abort.signal }).then(
    ({ resealed, skipped, remaining, failed }) => {
      if (failed.length > 0)
        logger.error(
          { resealed, skipped, remaining, failed },
          "BYOK re-seal pass: some credentials open with no held key",
        );
      else
        logger.info({ resealed, skipped, remaining, keyId: cipher.currentKeyId }, "BYOK re-seal pass ended");
    },
    (error: unknown) => logger.error({ err: error }, "BYOK re-seal pass failed; the next start resumes it"),
  );
  return {
    stop: async () => {
      abort.abort();
      await pass;
    },
  };
}
