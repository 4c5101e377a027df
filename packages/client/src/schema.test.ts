import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// The client's types are generated from the committed OpenAPI document (`pnpm openapi` runs
// openapi-typescript after writing the document): a document changed without regenerating them fails.

const packageDir = fileURLToPath(new URL("..", import.meta.url));

describe("the client's generated types", () => {
  // The generator takes a few seconds on a shared 2-core machine.
  it("are what openapi-typescript makes of the committed document", { timeout: 60_000 }, () => {
    const dir = mkdtempSync(join(tmpdir(), "gw-client-types-"));
    try {
      const output = join(dir, "schema.ts");
      execFileSync(
        join(packageDir, "node_modules/.bin/openapi-typescript"),
        [join(packageDir, "../openapi/openapi.json"), "--output", output],
        { stdio: "pipe" },
      );
      expect(readFileSync(join(packageDir, "src/schema.ts"), "utf8")).toBe(readFileSync(output, "utf8"));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
