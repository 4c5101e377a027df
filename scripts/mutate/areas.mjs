// The code mutation testing covers: where a silent defect costs money or lets someone in (issue 19).
// Each area is its own Stryker run so its score is reported on its own. `mutate` lists the exact files
// whose code is mutated; `tests` the test files that may kill them (vitest's `related` narrows them
// further to the files that import the mutated code). Integration tests (*.int.test.ts) count where they
// cover the code: they run against the real Postgres/Redis/Kafka that @gw/testing resolves.

/** @typedef {{ mutate: string[], tests: string[], note?: string }} Area */

/** @type {Record<string, Area>} */
export const AREAS = {
  money: {
    mutate: ["packages/money/src/index.ts"],
    tests: ["packages/money/src/**/*.test.ts"],
  },
  auth: {
    // Every source file of the package (the wallet-token verifier included), not the tests.
    mutate: ["packages/auth/src/*.ts", "!packages/auth/src/*.test.ts", "!packages/auth/src/index.ts"],
    tests: ["packages/auth/src/**/*.test.ts"],
  },
  hotstore: {
    // redis/lua.ts is left out: it is Lua in template strings, which Stryker cannot mutate (it mutates
    // JS/TS only; its one mutant per script, the empty string, says nothing). The Lua is held to the
    // same contract suite as the memory store, which is mutated here, by redis-store.int.test.ts.
    mutate: [
      "packages/hotstore/src/admission-store.ts",
      "packages/hotstore/src/memory-store.ts",
      "packages/hotstore/src/validate.ts",
      "packages/hotstore/src/redis/connect.ts",
      "packages/hotstore/src/redis/keys.ts",
      "packages/hotstore/src/redis/redis-store.ts",
      "packages/hotstore/src/redis/replies.ts",
      "packages/hotstore/src/redis/script.ts",
    ],
    tests: ["packages/hotstore/src/**/*.test.ts"],
  },
  "billing-admission": {
    mutate: [
      "apps/billing/src/admission/admission.ts",
      "apps/billing/src/admission/limits.ts",
      "apps/billing/src/admission/responses.ts",
    ],
    tests: ["apps/billing/src/**/*.test.ts"],
  },
  "billing-leases": {
    mutate: ["apps/billing/src/admission/leases.ts"],
    tests: ["apps/billing/src/**/*.test.ts"],
  },
  "billing-usage": {
    mutate: ["apps/billing/src/consumers/usage.ts"],
    tests: ["apps/billing/src/**/*.test.ts"],
  },
};

/** The bounded subset CI runs (`pnpm mutate --ci`): unit-tested, a few minutes on two cores. */
export const CI_AREAS = ["money"];

/** Below this score a run fails (Stryker's `thresholds.break`). */
export const BREAK_SCORE = 80;
