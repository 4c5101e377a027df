import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { AREAS } from "./areas.mjs";

// The vitest config Stryker's runner loads for one mutation area (GW_MUTATE_AREA, set by run.mjs): one
// project over the area's test files, with the same global setup (test services) and timeouts as the
// root config. Stryker runs it inside its sandbox, so the root is this file's sandboxed checkout.
const areaName = process.env.GW_MUTATE_AREA ?? "";
const area = AREAS[areaName];
if (!area) throw new Error(`GW_MUTATE_AREA must name a mutation area (${Object.keys(AREAS).join(", ")})`);

export default defineConfig({
  test: {
    root: resolve(dirname(fileURLToPath(import.meta.url)), "../.."),
    include: area.tests,
    // e2e tests drive the built apps (dist) as processes: they never load the mutated sources.
    exclude: ["**/node_modules/**", "**/*.e2e.test.ts", ...(area.exclude ?? [])],
    globalSetup: ["./packages/testing/dist/global-setup.js"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
