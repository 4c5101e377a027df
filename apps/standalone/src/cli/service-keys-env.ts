import { randomBytes } from "node:crypto";
import {
  generateServiceKeys,
  publicKeyList,
  SERVICE_NAMES,
  type ServiceKeyPair,
  type ServiceName,
} from "@gw/rpc";

/** `gw service-keys`: a fresh set as the variables docker-compose.yml reads (e.g. `> .env`). */
export function serviceKeysEnvFile(
  keys: Record<ServiceName, ServiceKeyPair> = generateServiceKeys(),
): string {
  const lines = SERVICE_NAMES.map((name) => `GW_${name.toUpperCase()}_SERVICE_KEY=${keys[name].privateKey}`);
  // The images run with NODE_ENV=production, where every app refuses to start without a wallet JWT
  // secret: compose takes it from the same .env (32 random bytes, hex).
  return [
    ...lines,
    `GW_SERVICE_PUBLIC_KEYS=${publicKeyList(keys)}`,
    `GW_WALLET_JWT_SECRET=${randomBytes(32).toString("hex")}`,
    "",
  ].join("\n");
}
