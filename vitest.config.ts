import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { defineConfig } from "vitest/config";
import { SummaryReporter } from "./scripts/summary-reporter.ts";

// One vitest run over every workspace package. Test tiers are told apart by file name:
//   *.test.ts      unit (no I/O)
//   *.int.test.ts  integration (real Postgres / Redis / Kafka, resolved by @gw/testing)
//   *.e2e.test.ts  end-to-end (apps as separate processes, driven over HTTP and the official SDKs)
// GW_TEST_TIER=unit|int|e2e narrows the run to one tier.
const tierPatterns: Record<string, string[]> = {
  unit: ["src/**/*.test.ts", "test/**/*.test.ts"],
  int: ["src/**/*.int.test.ts", "test/**/*.int.test.ts"],
  e2e: ["src/**/*.e2e.test.ts", "test/**/*.e2e.test.ts"],
};
const tier = process.env.GW_TEST_TIER;
const include = tier ? (tierPatterns[tier] ?? []) : ["src/**/*.test.ts", "test/**/*.test.ts"];
const exclude =
  tier === "unit" ? ["**/*.int.test.ts", "**/*.e2e.test.ts", "**/node_modules/**"] : ["**/node_modules/**"];

// e2e/ (the whole-system suites) keeps its tests at any depth, without a src/ or test/ folder.
const anywhere = (patterns: string[]) => [...new Set(patterns.map((p) => p.replace(/^(src|test)\//, "")))];

// bench/ is one package itself (its subfolders are not): before, it was listed as a parent and its
// tests never ran.
const workspaceDirs = [
  ...["packages", "apps"].flatMap((parent) =>
    existsSync(parent)
      ? readdirSync(parent, { withFileTypes: true })
          .filter((entry) => entry.isDirectory() && existsSync(join(parent, entry.name, "package.json")))
          .map((entry) => join(parent, entry.name))
      : [],
  ),
  ...(existsSync("bench/package.json") ? ["bench"] : []),
  ...(existsSync("e2e/package.json") ? ["e2e"] : []),
];

export default defineConfig({
  test: {
    reporters: ["default", new SummaryReporter()],
    globalSetup: ["./packages/testing/dist/global-setup.js"],
    projects: workspaceDirs.map((dir) => ({
      extends: true,
      test: {
        name: dir,
        root: dir,
        include: dir === "e2e" ? anywhere(include) : include,
        exclude,
        testTimeout: 60_000,
        hookTimeout: 120_000,
      },
    })),
  },
});
