import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

/**
 * The embedded default keeps its state (PostgreSQL data, dev credentials) under `.data/` at the
 * workspace root, whatever directory the command is started from. GW_DATA_DIR overrides it.
 */
export function dataDir(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): string {
  if (env.GW_DATA_DIR) return resolve(env.GW_DATA_DIR);
  return join(workspaceRoot(cwd), ".data");
}

function workspaceRoot(start: string): string {
  let current = resolve(start);
  for (;;) {
    if (existsSync(join(current, "pnpm-workspace.yaml"))) return current;
    const parent = dirname(current);
    if (parent === current) return resolve(start);
    current = parent;
  }
}
