import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Where the built console is when CONSOLE_DIR does not say: the `dist` of the `@gw/console` package as
 * this module resolves it (a workspace link in the repository, a copied package under node_modules in
 * the images `pnpm deploy` builds), else the workspace layout beside this app (apps/console/dist).
 */
export function defaultConsoleDir(): string {
  try {
    const manifest = createRequire(import.meta.url).resolve("@gw/console/package.json");
    return join(dirname(manifest), "dist");
  } catch {
    // From apps/edge/{src,dist}/console/ up to apps/, then console/dist.
    return join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "console", "dist");
  }
}
