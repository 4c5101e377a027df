import { connectDatabase } from "@gw/db";
import { loadKeysConfig } from "./config.js";
import { SCHEMA } from "./db/index.js";
import type { KeysTables } from "./db/schema.js";
import { CredentialCipher } from "./identity/byok/cipher.js";
import { resealCredentials } from "./identity/byok/reseal.js";

/**
 * `pnpm --filter @gw/keys reseal-byok` (`node dist/reseal-byok.js` in the keys image): the re-seal pass
 * of a BYOK_MASTER_KEY rotation, run to completion with the same DATABASE_URL, BYOK_MASTER_KEY and
 * BYOK_MASTER_KEY_PREVIOUS as the keys app. Prints one JSON line; exits 0 only when no row is left under
 * another key (then BYOK_MASTER_KEY_PREVIOUS can be removed). Safe beside running replicas; rerun to resume.
 */
async function main(): Promise<number> {
  const config = loadKeysConfig();
  if (!config.BYOK_MASTER_KEY) throw new Error("BYOK_MASTER_KEY is required");
  if (!config.DATABASE_URL) throw new Error("DATABASE_URL is required");
  const cipher = CredentialCipher.fromMasterKeys(config.BYOK_MASTER_KEY, config.BYOK_MASTER_KEY_PREVIOUS);
  const database = connectDatabase<KeysTables>({ url: config.DATABASE_URL, schema: SCHEMA });
  try {
    const result = await resealCredentials(database.db, cipher);
    console.log(JSON.stringify({ keyId: cipher.currentKeyId, ...result }));
    return result.remaining === 0 ? 0 : 1;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
