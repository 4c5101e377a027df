import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { precompress } from "../scripts/precompress.js";

// The build step that writes the `.br` / `.gz` siblings the edge serves (apps/edge/src/console/).

const SCRIPT = `${"export const greeting = 'hello from the console bundle';\n".repeat(200)}`;
const STYLE = `${".card { padding: 1rem; border: 1px solid #ccc; }\n".repeat(100)}`;

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "gw-precompress-"));
  await mkdir(join(dir, "assets"));
  await writeFile(join(dir, "index.html"), `<!doctype html><title>x</title>${"<p>console</p>".repeat(50)}`);
  await writeFile(join(dir, "assets", "index-Ab12.js"), SCRIPT);
  await writeFile(join(dir, "assets", "index-Cd34.css"), STYLE);
  await writeFile(join(dir, "assets", "logo.png"), Buffer.alloc(4096, 7));
  await writeFile(join(dir, "assets", "tiny.txt"), "x");
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("console build: precompress", () => {
  it("writes .br and .gz siblings of text files, in subfolders too, that decompress to the original", async () => {
    const report = await precompress(dir);
    for (const path of ["index.html", "assets/index-Ab12.js", "assets/index-Cd34.css"]) {
      const original = await readFile(join(dir, path));
      const br = await readFile(join(dir, `${path}.br`));
      const gz = await readFile(join(dir, `${path}.gz`));
      expect(brotliDecompressSync(br).equals(original), path).toBe(true);
      expect(gunzipSync(gz).equals(original), path).toBe(true);
      expect(br.length, path).toBeLessThan(original.length);
      expect(report.find((file) => file.path === path)).toEqual({
        path,
        identity: original.length,
        br: br.length,
        gzip: gz.length,
      });
    }
  });

  it("leaves binary files alone and writes no sibling that would not be smaller", async () => {
    const report = await precompress(dir);
    const assets = await readdir(join(dir, "assets"));
    expect(assets.filter((name) => name.startsWith("logo.png"))).toEqual(["logo.png"]);
    expect(assets.filter((name) => name.startsWith("tiny.txt"))).toEqual(["tiny.txt"]);
    expect(report.find((file) => file.path === "assets/tiny.txt")).toEqual({
      path: "assets/tiny.txt",
      identity: 1,
      br: undefined,
      gzip: undefined,
    });
    expect(report.some((file) => file.path.includes("logo.png"))).toBe(false);
  });

  it("does not compress its own siblings when run again", async () => {
    await precompress(dir);
    const again = await precompress(dir);
    expect(again.map((file) => file.path)).not.toContainEqual(expect.stringMatching(/\.(br|gz)$/));
    expect((await readdir(join(dir, "assets"))).some((name) => /\.(br|gz)\.(br|gz)$/.test(name))).toBe(false);
  });
});
