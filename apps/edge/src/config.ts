import { hostname } from "node:os";
import { type WalletTokens, walletTokensFromEnv } from "@gw/auth";
import { ConfigError, type Env, fragments, loadConfig, type TopicConfig, topicsFrom, z } from "@gw/config";
import { DEFAULT_BODY_TIMEOUT_MS } from "@gw/http";
import { DEFAULT_PRODUCER } from "@gw/kafka";
import { metricsEnv } from "@gw/metrics";
import { usdToPico } from "@gw/money";
import { type ServiceAuth, serviceAuthEnv, serviceAuthFromConfig } from "@gw/rpc";
import type { ControlPlaneUrls } from "./clients/control-plane.js";
import { type ConsoleSettings, defaultConsoleDir } from "./console/index.js";
import type { GuardedFetchOptions } from "./media/guarded-fetch.js";
import { parseTrustedProxies } from "./middleware/client-address.js";
import { DEFAULT_FLOOD_LIMITS, type FloodLimits } from "./middleware/flood-guard.js";
import { loadX402Config, type X402Config } from "./payments/x402-config.js";
import type { WebSearchSettings } from "./pipeline/web-search.js";
import {
  byokProviderSettings,
  type ProviderSettings,
  providerSettings,
  type UpstreamTimeouts,
} from "./providers/settings.js";

export interface EdgeConfig {
  host: string;
  httpPort: number;
  /** METRICS_PORT: GET /metrics on a port of its own (unset = not served). */
  metricsPort: number | undefined;
  keysGrpcAddress: string;
  billingGrpcAddress: string;
  /** BatchService (the generations app); unset turns message batches off. */
  generationsGrpcAddress: string | undefined;
  /** How clients reach the gateway (behind a proxy the request's own host may not say); for absolute URLs. */
  publicBaseUrl: string | undefined;
  controlPlane: ControlPlaneUrls;
  topics: TopicConfig;
  kafkaBrokers: string[] | undefined;
  /** Where usage events wait on disk while the broker is unreachable. */
  spoolDir: string;
  /** The usage producer's batching (KAFKA_PRODUCER_LINGER_MS, KAFKA_PRODUCER_BATCH_SIZE). */
  producer: { lingerMs: number; batchSize: number };
  logLevel: string;
  bodyLimit: string;
  /** BODY_TIMEOUT_MS: a request whose body is still arriving after this long is answered 408. */
  bodyTimeoutMs: number;
  /** SHUTDOWN_DEADLINE_MS: after SIGTERM, how long open requests and streams may run before they are cut. */
  shutdownDeadlineMs: number;
  timeouts: UpstreamTimeouts;
  rpcTimeoutMs: number;
  /** Upper bound on how long a cached principal is trusted should a key-change event be lost. */
  authCacheMaxTtlMs: number;
  /**
   * Verifies wallet JWTs locally (WALLET_JWT_SECRET or WALLET_JWT_SECRET_FILE, the keys app's secret);
   * unset = wallet JWTs are refused (`wallet_auth_not_configured`). Required when NODE_ENV=production.
   */
  walletTokens: WalletTokens | undefined;
  catalogRefreshMs: number;
  keepAliveMs: number;
  /** BYOK_FEE_PERCENT: a BYOK request's charge to credits, in percent of the provider's price. */
  byokFeePercent: number;
  /** The provider proxy's spend hold for a call the catalogue cannot price (pico-USD). */
  proxyHoldPico: bigint;
  /** Admit under budget leases (ADMISSION_LEASES, default true); false = one Admit call per request. */
  leases: boolean;
  /** SERVER_TIMING (default false): the edge's stage durations in a `Server-Timing` header. */
  serverTiming: boolean;
  /** The flood guard's thresholds on this edge (FLOOD_*). */
  flood: FloodLimits;
  /** TRUSTED_PROXIES: the proxies whose X-Forwarded-For names the client (CIDR list, default none). */
  trustedProxies: string[];
  /**
   * The web plugin's Exa-compatible search API (WEB_SEARCH_URL, WEB_SEARCH_API_KEY, WEB_SEARCH_TIMEOUT_MS);
   * undefined when WEB_SEARCH_URL is unset: `plugins: [{id: "web"}]` and `:online` are then a 400.
   */
  webSearch: WebSearchSettings | undefined;
  /** The caps of a media URL fetched on a caller's behalf (MEDIA_FETCH_*): body bytes, whole time, redirects. */
  mediaFetch: Pick<GuardedFetchOptions, "maxBytes" | "timeoutMs" | "maxRedirects">;
  instanceId: string;
  providers: ProviderSettings[];
  /** Every keyed provider's base URL, for calls made with an account's own key (BYOK). */
  byokProviders: ProviderSettings[];
  /**
   * The edge's service identity (SERVICE_AUTH_PRIVATE_KEY, SERVICE_AUTH_PUBLIC_KEYS); main.ts requires
   * it, tests of the edge alone leave it out.
   */
  serviceAuth: ServiceAuth | undefined;
  /** x402 payments (X402_*); undefined when X402_ENABLED is not true. */
  x402: X402Config | undefined;
  /** The web console at /console (CONSOLE_ENABLED, CONSOLE_DIR); undefined when turned off. */
  console: ConsoleSettings | undefined;
}

const milliseconds = (fallback: number) => z.coerce.number().int().positive().default(fallback);
const perSecond = (fallback: number) => z.coerce.number().nonnegative().default(fallback);
const burst = (fallback: number) => z.coerce.number().int().min(1).default(fallback);

const shape = {
  HOST: z.string().min(1).default("0.0.0.0"),
  // Spelled out rather than fragments.port(): its computed key loses the variable name in the type.
  HTTP_PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  KEYS_GRPC_ADDRESS: z.string().min(1).default("127.0.0.1:50051"),
  BILLING_GRPC_ADDRESS: z.string().min(1).default("127.0.0.1:50052"),
  GENERATIONS_GRPC_ADDRESS: z.string().min(1).optional(),
  PUBLIC_BASE_URL: z.url().optional(),
  KEYS_HTTP_URL: z.url().default("http://127.0.0.1:8081"),
  BILLING_HTTP_URL: z.url().default("http://127.0.0.1:8082"),
  GENERATIONS_HTTP_URL: z.url().default("http://127.0.0.1:8083"),
  ...fragments.topics,
  ...fragments.kafkaBrokers,
  ...fragments.logLevel,
  ...fragments.shutdownDeadline,
  BODY_TIMEOUT_MS: z.coerce.number().int().min(100).default(DEFAULT_BODY_TIMEOUT_MS),
  BODY_LIMIT: z
    .string()
    .regex(/^\d+(b|kb|mb|gb)?$/i, "expected a size such as 10mb or 1048576")
    .default("10mb"),
  UPSTREAM_CONNECT_TIMEOUT_MS: milliseconds(10_000),
  UPSTREAM_FIRST_BYTE_TIMEOUT_MS: milliseconds(180_000),
  UPSTREAM_TOTAL_TIMEOUT_MS: milliseconds(600_000),
  RPC_TIMEOUT_MS: milliseconds(3_000),
  AUTH_CACHE_MAX_TTL_MS: milliseconds(10_000),
  CATALOG_REFRESH_MS: milliseconds(5_000),
  KEEP_ALIVE_MS: milliseconds(15_000),
  PROXY_DEFAULT_HOLD_USD: z
    .string()
    .regex(/^\d+(\.\d{1,12})?$/, "expected a USD amount such as 0.10")
    .default("0.10"),
  BYOK_FEE_PERCENT: z.coerce
    .number()
    .min(0, "expected a percent from 0 to 100")
    .max(100, "expected a percent from 0 to 100")
    .default(0),
  ADMISSION_LEASES: z
    .enum(["true", "false"], { message: "expected true or false" })
    .default("true")
    .transform((value) => value === "true"),
  SERVER_TIMING: z
    .enum(["true", "false"], { message: "expected true or false" })
    .default("false")
    .transform((value) => value === "true"),
  // The flood guard's token buckets (requests per second and burst); a rate of 0 turns that bucket off.
  FLOOD_ADDRESS_RPS: perSecond(DEFAULT_FLOOD_LIMITS.address.perSecond),
  FLOOD_ADDRESS_BURST: burst(DEFAULT_FLOOD_LIMITS.address.burst),
  FLOOD_KEY_RPS: perSecond(DEFAULT_FLOOD_LIMITS.key.perSecond),
  FLOOD_KEY_BURST: burst(DEFAULT_FLOOD_LIMITS.key.burst),
  TRUSTED_PROXIES: z
    .string()
    .default("")
    .transform((value, context) => {
      try {
        return parseTrustedProxies(value);
      } catch (error) {
        context.addIssue({ code: "custom", message: (error as Error).message });
        return z.NEVER;
      }
    }),
  // A media URL fetched for a target that needs the bytes (an image or PDF URL to Gemini or Bedrock).
  MEDIA_FETCH_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(20 * 1024 * 1024),
  MEDIA_FETCH_TIMEOUT_MS: milliseconds(10_000),
  // The Fetch standard's own redirect limit is 20; more than that is a loop.
  MEDIA_FETCH_MAX_REDIRECTS: z.coerce.number().int().min(0).max(20).default(3),
  // The web plugin's search API (Exa's `POST /search` or one that speaks it); the key is a secret.
  WEB_SEARCH_URL: z.url().optional(),
  WEB_SEARCH_API_KEY: z.string().min(1).optional(),
  WEB_SEARCH_TIMEOUT_MS: milliseconds(10_000),
  EDGE_INSTANCE_ID: z.string().min(1).optional(),
  EVENT_SPOOL_DIR: z.string().min(1).default(".data/spool"),
  // How long a partial batch of usage events waits for company before it is sent: no answer waits on
  // Kafka, so this trades freshness (the records' and ledger's delay) for fewer produce requests.
  KAFKA_PRODUCER_LINGER_MS: z.coerce.number().int().min(0).max(1_000).default(DEFAULT_PRODUCER.lingerMs),
  KAFKA_PRODUCER_BATCH_SIZE: z.coerce.number().int().min(1).max(10_000).default(DEFAULT_PRODUCER.batchSize),
  DEMO_PROVIDER_URL: z.url().optional(),
  CONSOLE_ENABLED: z
    .enum(["true", "false"], { message: "expected true or false" })
    .default("true")
    .transform((value) => value === "true"),
  CONSOLE_DIR: z.string().min(1).optional(),
  ...serviceAuthEnv,
  ...metricsEnv,
};

/** Parses the edge's environment once at start-up; a bad value names the variable. */
export function loadEdgeConfig(env: Env = process.env): EdgeConfig {
  const parsed = loadConfig(shape, env);
  return {
    host: parsed.HOST,
    httpPort: parsed.HTTP_PORT,
    metricsPort: parsed.METRICS_PORT,
    keysGrpcAddress: parsed.KEYS_GRPC_ADDRESS,
    billingGrpcAddress: parsed.BILLING_GRPC_ADDRESS,
    generationsGrpcAddress: parsed.GENERATIONS_GRPC_ADDRESS,
    publicBaseUrl: parsed.PUBLIC_BASE_URL?.replace(/\/+$/, ""),
    controlPlane: {
      keysHttpUrl: parsed.KEYS_HTTP_URL,
      billingHttpUrl: parsed.BILLING_HTTP_URL,
      generationsHttpUrl: parsed.GENERATIONS_HTTP_URL,
    },
    topics: topicsFrom(parsed),
    kafkaBrokers: parsed.KAFKA_BROKERS,
    spoolDir: parsed.EVENT_SPOOL_DIR,
    producer: { lingerMs: parsed.KAFKA_PRODUCER_LINGER_MS, batchSize: parsed.KAFKA_PRODUCER_BATCH_SIZE },
    logLevel: parsed.LOG_LEVEL,
    bodyLimit: parsed.BODY_LIMIT.toLowerCase(),
    bodyTimeoutMs: parsed.BODY_TIMEOUT_MS,
    shutdownDeadlineMs: parsed.SHUTDOWN_DEADLINE_MS,
    timeouts: {
      connectMs: parsed.UPSTREAM_CONNECT_TIMEOUT_MS,
      firstByteMs: parsed.UPSTREAM_FIRST_BYTE_TIMEOUT_MS,
      totalMs: parsed.UPSTREAM_TOTAL_TIMEOUT_MS,
    },
    rpcTimeoutMs: parsed.RPC_TIMEOUT_MS,
    authCacheMaxTtlMs: parsed.AUTH_CACHE_MAX_TTL_MS,
    walletTokens: walletTokensFromEnv(env),
    catalogRefreshMs: parsed.CATALOG_REFRESH_MS,
    keepAliveMs: parsed.KEEP_ALIVE_MS,
    byokFeePercent: parsed.BYOK_FEE_PERCENT,
    proxyHoldPico: usdToPico(parsed.PROXY_DEFAULT_HOLD_USD),
    leases: parsed.ADMISSION_LEASES,
    serverTiming: parsed.SERVER_TIMING,
    flood: {
      address: { perSecond: parsed.FLOOD_ADDRESS_RPS, burst: parsed.FLOOD_ADDRESS_BURST },
      key: { perSecond: parsed.FLOOD_KEY_RPS, burst: parsed.FLOOD_KEY_BURST },
    },
    trustedProxies: parsed.TRUSTED_PROXIES,
    mediaFetch: {
      maxBytes: parsed.MEDIA_FETCH_MAX_BYTES,
      timeoutMs: parsed.MEDIA_FETCH_TIMEOUT_MS,
      maxRedirects: parsed.MEDIA_FETCH_MAX_REDIRECTS,
    },
    webSearch: webSearchSettings(
      parsed.WEB_SEARCH_URL,
      parsed.WEB_SEARCH_API_KEY,
      parsed.WEB_SEARCH_TIMEOUT_MS,
    ),
    instanceId: parsed.EDGE_INSTANCE_ID ?? `${hostname()}-${process.pid}`,
    providers: providerSettings(env, parsed.DEMO_PROVIDER_URL),
    byokProviders: byokProviderSettings(env),
    serviceAuth:
      parsed.SERVICE_AUTH_PRIVATE_KEY || parsed.SERVICE_AUTH_PUBLIC_KEYS
        ? serviceAuthFromConfig("edge", parsed)
        : undefined,
    x402: loadX402Config(env),
    console: parsed.CONSOLE_ENABLED ? { dir: parsed.CONSOLE_DIR ?? defaultConsoleDir() } : undefined,
  };
}

/** A search URL needs its key (Exa refuses a keyless call); a key without a URL is a mistake too. */
function webSearchSettings(
  url: string | undefined,
  apiKey: string | undefined,
  timeoutMs: number,
): WebSearchSettings | undefined {
  if (url === undefined && apiKey === undefined) return undefined;
  if (url === undefined) throw new ConfigError(["WEB_SEARCH_URL: required when WEB_SEARCH_API_KEY is set"]);
  if (apiKey === undefined)
    throw new ConfigError(["WEB_SEARCH_API_KEY: required when WEB_SEARCH_URL is set"]);
  return { url: url.replace(/\/+$/, ""), apiKey, timeoutMs };
}
