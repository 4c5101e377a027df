import { PrincipalResolver, type WalletTokens } from "@gw/auth";
import type { TopicConfig } from "@gw/config";
import type { Database } from "@gw/db";
import type { EventBus } from "@gw/events";
import type { Logger } from "@gw/logger";
import type { ServiceAuth } from "@gw/rpc";
import type { CatalogContent } from "./catalog/content.js";
import type { CatalogContext } from "./catalog/context.js";
import { type EndpointHealthSource, EndpointHealthView } from "./catalog/endpoint-health.js";
import { CatalogSnapshots } from "./catalog/snapshots.js";
import type { KeysTables } from "./db/schema.js";
import { type AccountLifecycle, DEFAULT_ACCOUNT_LIFECYCLE } from "./identity/accounts/lifecycle.js";
import { CredentialCipher } from "./identity/byok/cipher.js";
import type { IdentityContext } from "./identity/context.js";
import { authenticateKey } from "./identity/keys/authenticate.js";
import type { UsageSource } from "./identity/usage/billing.js";

/** What the keys app is given; the caller (main.ts, standalone, a test) owns every connection. */
export interface KeysDeps {
  database: Database<KeysTables>;
  bus: EventBus;
  topics: TopicConfig;
  logger: Logger;
  /** Billing's GetUsage, for the usage fields of the Key object. */
  billing: UsageSource;
  /**
   * The generations app's EndpointHealthService, polled in the background for the endpoints view's
   * figures (main.ts and standalone always set it). Without it every figure is `null`.
   */
  health?: EndpointHealthSource | undefined;
  /** The catalogue to seed at start; defaults to @gw/catalog's. */
  catalog?: CatalogContent;
  /** BYOK_MASTER_KEY (32 bytes, hex or base64). Without it the BYOK routes answer 503. */
  byokMasterKey?: string | undefined;
  /**
   * BYOK_MASTER_KEY_PREVIOUS: during a rotation, the key being replaced. It opens rows, never seals; the
   * app re-seals every row under BYOK_MASTER_KEY in the background at start (identity/byok/reseal.ts).
   */
  byokMasterKeyPrevious?: string | undefined;
  /**
   * Wallet sign-in: the JWT signer and PUBLIC_BASE_URL (the sign-in domain). Without both,
   * `POST /v1/x402/auth` answers 503 and wallet JWTs are refused.
   */
  wallet?: { tokens: WalletTokens; publicBaseUrl: string } | undefined;
  /**
   * Service-to-service authentication (main.ts always sets it): REST answers only the edge, gRPC
   * each method's callers (grpc.ts). Unset in tests that exercise the app alone.
   */
  serviceAuth?: ServiceAuth | undefined;
  /** BODY_TIMEOUT_MS: a request body still arriving after this long is a 408 (default 10 s). */
  bodyTimeoutMs?: number | undefined;
  /** ACCOUNT_CREATION_* and ACCOUNT_SWEEP_*; the documented defaults without. */
  accounts?: AccountLifecycle | undefined;
}

/**
 * Everything the routes share, built once per app: the identity module's context and the catalogue's
 * (each module's routes see only their own, so either module can leave for an app of its own).
 */
export interface KeysContext extends IdentityContext, CatalogContext {}

export function keysContext(deps: KeysDeps): KeysContext {
  const db = deps.database.db;
  return {
    db,
    store: { db, publisher: deps.bus, keyChangesTopic: deps.topics.keyChanges },
    byok: {
      db,
      cipher: deps.byokMasterKey
        ? CredentialCipher.fromMasterKeys(deps.byokMasterKey, deps.byokMasterKeyPrevious)
        : undefined,
      publisher: deps.bus,
      keyChangesTopic: deps.topics.keyChanges,
    },
    billing: deps.billing,
    snapshots: new CatalogSnapshots(db),
    health: new EndpointHealthView(deps.health, { logger: deps.logger }),
    // This app owns the keys, so it authenticates its own callers against its tables, uncached: a key
    // disabled here stops working here at once.
    resolver: new PrincipalResolver((request) => authenticateKey(db, request.keyHash), {
      maxTtlMs: 0,
      negativeTtlMs: 0,
      maxEntries: 1,
      walletTokens: deps.wallet?.tokens,
    }),
    walletAuth: deps.wallet
      ? {
          tokens: deps.wallet.tokens,
          publicBaseUrl: new URL(deps.wallet.publicBaseUrl),
          creation: (deps.accounts ?? DEFAULT_ACCOUNT_LIFECYCLE).creation,
        }
      : undefined,
    logger: deps.logger,
  };
}
