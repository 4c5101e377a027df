import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The workspace root (the folder with pnpm-workspace.yaml), found from this file's location. */
export function repoRoot(start: string = dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, "pnpm-workspace.yaml"))) return dir;
    if (dirname(dir) === dir) throw new Error(`no pnpm-workspace.yaml above ${start}`);
  }
}
