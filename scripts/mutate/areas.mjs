// The code mutation testing covers: where a silent defect costs money or lets someone in (issue 19).
// Each area is its own Stryker run so its score is reported on its own. `mutate` lists the exact files
// whose code is mutated; `tests` the test files that may kill them (vitest's `related` narrows them
// further to the files that import the mutated code; `exclude` drops some of them). Integration tests
// (*.int.test.ts) count where they cover the code: they run against the real Postgres/Redis/Kafka that
// @gw/testing resolves.

/** @typedef {{ mutate: string[], tests: string[], exclude?: string[], timeoutMs?: number }} Area */

/**
 * Billing's overshoot tests drive 200 concurrent requests against a key limit and compare the ledger
 * with what was admitted: load tests whose bound holds statistically, minutes per run. They are not run
 * per mutant; the admission paths they exercise are covered by the admit/lease integration tests.
 */
const BILLING_LOAD_TESTS = ["apps/billing/src/admission/*overshoot*.test.ts"];

/** The planner's endpoint-health files: their own area (edge-health), left out of edge-planning. */
const EDGE_HEALTH_FILES = [
  "apps/edge/src/planning/availability.ts",
  "apps/edge/src/planning/circuit.ts",
  "apps/edge/src/planning/health.ts",
  "apps/edge/src/planning/measured-health.ts",
  "apps/edge/src/planning/measured-order.ts",
];

/** @type {Record<string, Area>} */
export const AREAS = {
  money: {
    // Pico arithmetic and the BYOK charge rule (charge.ts), each held by the tests beside it.
    mutate: ["packages/money/src/pico.ts", "packages/money/src/charge.ts"],
    tests: ["packages/money/src/**/*.test.ts"],
  },
  auth: {
    // Every source file of the package (the wallet-token verifier included), not the tests.
    mutate: [
      "packages/auth/src/*.ts",
      "!packages/auth/src/*.test.ts",
      "!packages/auth/src/index.ts",
      "!packages/auth/src/test-principal.ts",
    ],
    tests: ["packages/auth/src/**/*.test.ts"],
  },
  "admission-store": {
    // redis/lua.ts is left out: it is Lua in template strings, which Stryker cannot mutate (it mutates
    // JS/TS only; its one mutant per script, the empty string, says nothing). The Lua is held to the
    // same contract suite as the memory store, which is mutated here, by redis-store.int.test.ts.
    mutate: [
      "packages/admission-store/src/admission-store.ts",
      "packages/admission-store/src/memory-store.ts",
      "packages/admission-store/src/validate.ts",
      "packages/admission-store/src/redis/connect.ts",
      "packages/admission-store/src/redis/keys.ts",
      "packages/admission-store/src/redis/redis-store.ts",
      "packages/admission-store/src/redis/replies.ts",
      "packages/admission-store/src/redis/script.ts",
    ],
    tests: ["packages/admission-store/src/**/*.test.ts"],
    timeoutMs: 30_000,
  },
  "billing-admission": {
    mutate: [
      "apps/billing/src/admission/admission.ts",
      "apps/billing/src/admission/limits.ts",
      "apps/billing/src/admission/responses.ts",
    ],
    tests: ["apps/billing/src/**/*.test.ts"],
    exclude: BILLING_LOAD_TESTS,
    timeoutMs: 30_000,
  },
  "billing-leases": {
    mutate: ["apps/billing/src/admission/leases.ts"],
    tests: ["apps/billing/src/**/*.test.ts"],
    exclude: BILLING_LOAD_TESTS,
    timeoutMs: 30_000,
  },
  // The handler's own tests (real Postgres, no bus): the bus-level suite (usage.int.test.ts) also
  // covers this file, but it starts billing and a Kafka consumer group per run, which made one
  // mutant cost minutes; what it adds (delivery, dead letters) is the bus's code, not this file's.
  "billing-usage": {
    mutate: ["apps/billing/src/consumers/usage.ts"],
    tests: ["apps/billing/src/consumers/usage-handler.int.test.ts"],
    timeoutMs: 30_000,
  },
  // The edge's areas are killed by the unit tests beside them: the edge's integration tests start the
  // whole edge with fake providers and billing, far too slow to re-run per mutant on two cores.
  "edge-planning": {
    mutate: [
      "apps/edge/src/planning/*.ts",
      "!apps/edge/src/planning/*.test.ts",
      ...EDGE_HEALTH_FILES.map((file) => `!${file}`),
    ],
    tests: ["apps/edge/src/planning/*.test.ts"],
  },
  // Endpoint-health routing (issue 29): the circuit, measured health and the order it gives endpoints.
  "edge-health": {
    mutate: EDGE_HEALTH_FILES,
    tests: ["apps/edge/src/planning/*.test.ts"],
  },
  "edge-admission": {
    mutate: ["apps/edge/src/admission/*.ts", "!apps/edge/src/admission/*.test.ts"],
    tests: ["apps/edge/src/admission/*.test.ts", "apps/edge/src/pipeline/finish-generation.test.ts"],
  },
  "edge-cost": {
    mutate: ["apps/edge/src/canonical/cost.ts"],
    tests: ["apps/edge/src/canonical/*.test.ts"],
  },
  "edge-proxy-access": {
    mutate: ["apps/edge/src/pipeline/proxy-access.ts", "apps/edge/src/pipeline/proxy-path.ts"],
    tests: ["apps/edge/src/pipeline/proxy-*.test.ts"],
  },
  // x402's local verification: the checks a payment must pass before the facilitator is asked.
  "x402-verify": {
    mutate: ["packages/x402/src/local-check/*.ts", "!packages/x402/src/local-check/*.test.ts"],
    tests: ["packages/x402/src/local-check/*.test.ts"],
  },
  // The edge's side of a payment: its offers, reading a payment and pairing it with the offer it
  // accepted, the replay memory, refusals, and the order a payment is checked, verified, settled and
  // credited in (pay.ts, held by pay.test.ts). hot-path.int.test.ts starts a whole edge: too slow per
  // mutant (see the edge's areas above).
  "edge-payments": {
    mutate: [
      "apps/edge/src/payments/fee-payers.ts",
      "apps/edge/src/payments/headers.ts",
      "apps/edge/src/payments/normalize.ts",
      "apps/edge/src/payments/offers.ts",
      "apps/edge/src/payments/pay.ts",
      "apps/edge/src/payments/recent-authorizations.ts",
      "apps/edge/src/payments/refusal.ts",
    ],
    tests: ["apps/edge/src/payments/*.test.ts"],
    exclude: ["apps/edge/src/payments/hot-path.int.test.ts"],
  },
  // Billing crediting a settled payment to the ledger, once: its handler-level tests (real Postgres and
  // Redis, no bus; the bus-level consumers/payments.int.test.ts starts a consumer group per run).
  "billing-payments": {
    mutate: ["apps/billing/src/payments/credit-payment.ts"],
    tests: ["apps/billing/src/payments/*.test.ts"],
    timeoutMs: 30_000,
  },
  // Wallet sign-in (SIWx messages, signatures, the checks, wallet accounts) in the keys app; the
  // wallet-token verifier is in the auth area.
  "wallet-sign-in": {
    mutate: ["apps/keys/src/identity/wallets/*.ts", "!apps/keys/src/identity/wallets/*.test.ts"],
    tests: [
      "apps/keys/src/identity/wallets/*.test.ts",
      "apps/keys/src/identity/routes/wallet-auth*.test.ts",
      "apps/keys/src/identity/rpc/ensure-wallet-account.int.test.ts",
    ],
    timeoutMs: 30_000,
  },
  // Service tokens: how one service proves itself to another (issue and check, keys, gRPC auth).
  "service-tokens": {
    mutate: [
      "packages/rpc/src/service-auth.ts",
      "packages/rpc/src/service-keys.ts",
      "packages/rpc/src/service-tokens.ts",
      "packages/rpc/src/grpc-service-auth.ts",
    ],
    // The gRPC metrics and tracing tests start servers with deadlines (seconds per run) and check
    // neither tokens nor callers.
    tests: [
      "packages/rpc/src/service-*.test.ts",
      "packages/rpc/src/grpc-service-auth.test.ts",
      "packages/rpc/src/typed-client.test.ts",
    ],
  },
};

/** Below this score a run fails (Stryker's `thresholds.break`). */
export const BREAK_SCORE = 80;

/** Below this score a mutated file fails its area's run, whatever the area's score (issue 29). */
export const FILE_FLOOR = 70;
