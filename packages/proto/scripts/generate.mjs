// Regenerates src/ from ../../proto with buf (shipped as an npm package, so no system protoc is
// needed) and the ts-proto plugin. CI runs this and fails when the committed output changes.
import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const packageDir = join(dirname(fileURLToPath(import.meta.url)), "..");
rmSync(join(packageDir, "src"), { recursive: true, force: true });
execFileSync(join(packageDir, "node_modules/.bin/buf"), ["generate"], { cwd: packageDir, stdio: "inherit" });
