import { type Env, fragments, loadConfig, z } from "@gw/config";
import { controlPlaneEnv, keysClientEnv } from "@gw/service";
import { LEASE_EXPIRY_MARGIN_MS } from "./admission/leases.js";
import { DEFAULT_PAID_REQUESTS_PER_MINUTE } from "./admission/limits.js";
import { DEFAULT_HOLD_TTL_MS, DEFAULT_LEASE_USE_MS } from "./deps.js";

const flag = z
  .enum(["true", "false"], { message: "expected true or false" })
  .default("false")
  .transform((value) => value === "true");

/** Billing app settings; a bad value stops start-up with a message naming the variable. */
export function loadBillingConfig(env: Env = process.env) {
  return loadConfig(
    {
      ...controlPlaneEnv({ http: 8082, grpc: 50052 }),
      ...fragments.redisUrl,
      ...keysClientEnv,
      /** How long a spend hold pins budget if the edge never settles or releases it. */
      HOLD_TTL_MS: z.coerce.number().int().min(1_000).default(DEFAULT_HOLD_TTL_MS),
      /**
       * A budget lease's hold TTL (default: HOLD_TTL_MS). Above the 60 s in which an edge starts no
       * more requests under a lease, so those it started can finish inside the hold.
       */
      LEASE_TTL_MS: z.coerce
        .number()
        .int()
        .min(LEASE_EXPIRY_MARGIN_MS + 1_000)
        .optional(),
      /** How long an edge starts requests under one lease before it acquires the next. */
      LEASE_USE_MS: z.coerce.number().int().min(1_000).default(DEFAULT_LEASE_USE_MS),
      /**
       * Paid-model requests one account may start per UTC minute, all keys and edges together (429
       * `rate_limited` with Retry-After beyond it); 0 turns the ceiling off.
       */
      PAID_REQUESTS_PER_MINUTE: z.coerce.number().int().min(0).default(DEFAULT_PAID_REQUESTS_PER_MINUTE),
      /** `true`: Admit answers "admitted" (without a hold) when Redis is down, instead of UNAVAILABLE. */
      ADMISSION_FAIL_OPEN: flag,
      /**
       * x402 reconciliation: `<CAIP-2 network>=<JSON-RPC URL>` pairs, comma-separated (e.g.
       * `eip155:8453=https://mainnet.base.org`). The reconciler reads each unsettled payment's EIP-3009
       * nonce on its network's chain; a network without a URL is reported to the operator, not guessed.
       */
      X402_RPC_URLS: z
        .string()
        .default("")
        .transform((value, context) => parseRpcUrls(value, context)),
      /** How often the reconciler looks at unsettled payments. */
      X402_RECONCILE_INTERVAL_MS: z.coerce.number().int().min(100).default(30_000),
      /** Prefix of billing's Redis keys (before the `{acct:<id>}` hash tag). */
      REDIS_KEY_PREFIX: z
        .string()
        .regex(/^[^{}]*$/, "must not contain braces")
        .default("gw:billing:"),
    },
    env,
  );
}

/** `network=url,network=url` → a map; a malformed pair is a config error naming it. */
export function parseRpcUrls(value: string, context: z.RefinementCtx): Record<string, string> {
  const urls: Record<string, string> = {};
  for (const pair of value
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean)) {
    const at = pair.indexOf("=");
    const network = pair.slice(0, at);
    const url = pair.slice(at + 1);
    if (at < 1 || !/^[a-z0-9-]{3,8}:[-_a-zA-Z0-9]{1,32}$/.test(network) || !URL.canParse(url)) {
      context.addIssue({ code: "custom", message: `expected <CAIP-2 network>=<URL>, got "${pair}"` });
      continue;
    }
    urls[network] = url;
  }
  return urls;
}

export type BillingConfig = ReturnType<typeof loadBillingConfig>;
