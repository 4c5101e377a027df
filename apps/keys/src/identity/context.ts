import type { PrincipalResolver } from "@gw/auth";
import type { Logger } from "@gw/logger";
import type { Kysely } from "kysely";
import type { KeysTables } from "../db/schema.js";
import type { ByokStore } from "./byok/service.js";
import type { KeyStore } from "./keys/service.js";
import type { UsageSource } from "./usage/billing.js";
import type { WalletAuthSettings } from "./wallets/sign-in.js";

/** What the identity module's routes and services share, built once per app (deps.ts). */
export interface IdentityContext {
  db: Kysely<KeysTables>;
  store: KeyStore;
  byok: ByokStore;
  billing: UsageSource;
  resolver: PrincipalResolver;
  walletAuth: WalletAuthSettings | undefined;
  logger: Logger;
}
