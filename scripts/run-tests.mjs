// `pnpm test`: runs every tier in one vitest invocation (services are resolved by the global setup
// in packages/testing). Extra arguments go to vitest, e.g. `pnpm test -- apps/keys`.
import { spawnSync } from "node:child_process";

const args = ["exec", "vitest", "run", ...process.argv.slice(2)];
const result = spawnSync("pnpm", args, { stdio: "inherit" });
process.exit(result.status ?? 1);
