import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { generateServiceKeys, SERVICE_NAMES, type ServiceKeyPair, type ServiceName } from "@gw/rpc";

export function serviceKeysFile(dataDirectory: string): string {
  return join(dataDirectory, "service-keys.json");
}

/**
 * The embedded default's four apps authenticate one another like the split plane's, with a key pair
 * per app generated on first start into the data directory (owner-only) and reused afterwards.
 */
export function ensureServiceKeys(dataDirectory: string): Record<ServiceName, ServiceKeyPair> {
  const file = serviceKeysFile(dataDirectory);
  const existing = existsSync(file) ? readKeys(readFileSync(file, "utf8")) : undefined;
  if (existing) return existing;
  const keys = generateServiceKeys();
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(keys, null, 2)}\n`, { mode: 0o600 });
  return keys;
}

function readKeys(text: string): Record<ServiceName, ServiceKeyPair> | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof parsed !== "object" || parsed === null) return undefined;
  const record = parsed as Record<string, unknown>;
  for (const name of SERVICE_NAMES) {
    const pair = record[name];
    if (typeof pair !== "object" || pair === null) return undefined;
    if (!("privateKey" in pair) || typeof pair.privateKey !== "string") return undefined;
    if (!("publicKey" in pair) || typeof pair.publicKey !== "string") return undefined;
  }
  return parsed as Record<ServiceName, ServiceKeyPair>;
}
