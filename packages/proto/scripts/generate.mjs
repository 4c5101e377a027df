// Regenerates src/ from ../../proto with buf (shipped as an npm package, so no system protoc is
// needed) and the ts-proto plugin. CI runs this and fails when the committed output changes.
// Output goes to a scratch directory first and only changed files are written, so a build running
// at the same time never sees src/ half-deleted.
import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const packageDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const target = join(packageDir, "src");
const scratch = mkdtempSync(join(tmpdir(), "gw-proto-"));

function files(root) {
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)));
}

try {
  execFileSync(join(packageDir, "node_modules/.bin/buf"), ["generate", "--output", scratch], {
    cwd: packageDir,
    stdio: "inherit",
  });
  const generated = join(scratch, "src");
  const fresh = new Set(files(generated));
  for (const file of fresh) {
    const content = readFileSync(join(generated, file));
    const destination = join(target, file);
    if (existsSync(destination) && readFileSync(destination).equals(content)) continue;
    mkdirSync(dirname(destination), { recursive: true });
    writeFileSync(destination, content);
  }
  for (const file of files(target)) if (!fresh.has(file)) rmSync(join(target, file));
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
