import { mkdir, mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EdgeHarness, startEdgeHarness } from "../test/harness.js";
import { CONSOLE_CSP } from "./headers.js";

// The edge sending the console's precompressed `.br` / `.gz` siblings (written by the console build,
// apps/console/scripts/precompress.ts) over real HTTP, against a fixture dist in a temporary folder.

const INDEX = `<!doctype html><html><head><script type="module" src="/console/assets/app-Ef56Gh78.js"></script></head><body>${'<div id="root"></div>'.repeat(40)}</body></html>\n`;
/** With both siblings. */
const APP = `${'export const greeting = (name) => "hello " + name + " from the console bundle";\n'.repeat(300)}`;
/** With a .gz sibling only. */
const STYLE = `${".card { padding: 1rem; border: 1px solid #ccc; }\n".repeat(200)}`;
/** With no sibling at all. */
const PLAIN = "console.log('plain');\n";

const APP_PATH = "/console/assets/app-Ef56Gh78.js";
const STYLE_PATH = "/console/assets/style-Ij90Kl12.css";
const PLAIN_PATH = "/console/assets/plain-Mn34Op56.js";

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  bytes: Buffer;
}

/** node:http sends no Accept-Encoding of its own, and hands back the bytes as they came. */
function get(
  base: string,
  target: string,
  headers: Record<string, string> = {},
  method = "GET",
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const call = httpRequest(base, { method, path: target, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          bytes: Buffer.concat(chunks),
        }),
      );
    });
    call.on("error", reject);
    call.end();
  });
}

function varies(response: RawResponse): boolean {
  return String(response.headers.vary ?? "")
    .split(",")
    .some((name) => name.trim().toLowerCase() === "accept-encoding");
}

let root: string;
let dist: string;
let edge: EdgeHarness;
const sizes = { appBr: 0, appGz: 0, styleGz: 0, indexBr: 0 };

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "gw-console-compression-"));
  dist = join(root, "dist");
  await mkdir(join(dist, "assets"), { recursive: true });
  const write = async (path: string, body: string | Buffer): Promise<number> => {
    await writeFile(join(dist, path), body);
    return Buffer.byteLength(body);
  };
  await write("index.html", INDEX);
  sizes.indexBr = await write("index.html.br", brotliCompressSync(INDEX));
  await write("assets/app-Ef56Gh78.js", APP);
  sizes.appBr = await write("assets/app-Ef56Gh78.js.br", brotliCompressSync(APP));
  sizes.appGz = await write("assets/app-Ef56Gh78.js.gz", gzipSync(APP));
  await write("assets/style-Ij90Kl12.css", STYLE);
  sizes.styleGz = await write("assets/style-Ij90Kl12.css.gz", gzipSync(STYLE));
  await write("assets/plain-Mn34Op56.js", PLAIN);
  edge = await startEdgeHarness({ keys: [], env: { CONSOLE_DIR: dist } });
});

afterAll(async () => {
  await edge?.stop();
  if (root) await rm(root, { recursive: true, force: true });
});

describe("edge: the console's precompressed files", () => {
  it("sends the .br sibling to a client that accepts br, which decompresses to the original", async () => {
    const identity = await get(edge.url, APP_PATH);
    const response = await get(edge.url, APP_PATH, { "accept-encoding": "gzip, deflate, br" });
    expect(response.status).toBe(200);
    expect(response.headers["content-encoding"]).toBe("br");
    expect(response.headers["content-length"]).toBe(String(sizes.appBr));
    expect(response.bytes.length).toBe(sizes.appBr);
    expect(brotliDecompressSync(response.bytes).toString("utf8")).toBe(APP);
    expect(response.headers["content-type"]).toBe(identity.headers["content-type"]);
    expect(response.headers["content-type"]).toMatch(/^text\/javascript/);
    expect(response.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(response.headers["content-security-policy"]).toBe(CONSOLE_CSP);
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
    expect(varies(response)).toBe(true);
    // Ranges are of the identity bytes: the coded answer offers none.
    expect(response.headers["accept-ranges"]).toBeUndefined();
  });

  it("sends the .gz sibling to a client that accepts only gzip, which decompresses to the original", async () => {
    const response = await get(edge.url, APP_PATH, { "accept-encoding": "gzip" });
    expect(response.status).toBe(200);
    expect(response.headers["content-encoding"]).toBe("gzip");
    expect(response.headers["content-length"]).toBe(String(sizes.appGz));
    expect(gunzipSync(response.bytes).toString("utf8")).toBe(APP);
    expect(response.headers["content-type"]).toMatch(/^text\/javascript/);
    expect(varies(response)).toBe(true);
  });

  it("sends the identity bytes, still with Vary, to a client that asks for no coding", async () => {
    const asked: Record<string, string>[] = [
      {},
      { "accept-encoding": "identity" },
      { "accept-encoding": "" },
    ];
    for (const headers of asked) {
      const response = await get(edge.url, APP_PATH, headers);
      expect(response.status).toBe(200);
      expect(response.headers["content-encoding"], JSON.stringify(headers)).toBeUndefined();
      expect(response.headers["content-length"]).toBe(String(Buffer.byteLength(APP)));
      expect(response.bytes.toString("utf8")).toBe(APP);
      expect(varies(response), JSON.stringify(headers)).toBe(true);
    }
  });

  it("respects q-values: q=0 refuses a coding, a higher q wins, identity when every coding is refused", async () => {
    const cases: [string, string | undefined][] = [
      ["br;q=0, gzip", "gzip"],
      ["gzip;q=1, br;q=0.5", "gzip"],
      ["br;q=0.2, gzip;q=0.8", "gzip"],
      ["gzip, br", "br"],
      ["*", "br"],
      ["*;q=0.5, br;q=0", "gzip"],
      ["br;q=0, gzip;q=0", undefined],
      ["*;q=0, identity", undefined],
      ["gzip;q=0.5, identity", undefined],
    ];
    for (const [accept, coding] of cases) {
      const response = await get(edge.url, APP_PATH, { "accept-encoding": accept });
      expect(response.status, accept).toBe(200);
      expect(response.headers["content-encoding"], accept).toBe(coding);
      const body =
        coding === "br"
          ? brotliDecompressSync(response.bytes)
          : coding === "gzip"
            ? gunzipSync(response.bytes)
            : response.bytes;
      expect(body.toString("utf8"), accept).toBe(APP);
    }
  });

  it("falls back to the next acceptable coding, then identity, when a sibling is missing", async () => {
    const gz = await get(edge.url, STYLE_PATH, { "accept-encoding": "br, gzip" });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gz.headers["content-length"]).toBe(String(sizes.styleGz));
    expect(gunzipSync(gz.bytes).toString("utf8")).toBe(STYLE);
    expect(gz.headers["content-type"]).toMatch(/^text\/css/);
    const brOnly = await get(edge.url, STYLE_PATH, { "accept-encoding": "br" });
    expect(brOnly.headers["content-encoding"]).toBeUndefined();
    expect(brOnly.bytes.toString("utf8")).toBe(STYLE);
    expect(varies(brOnly)).toBe(true);
    // No sibling at all: the answer does not vary.
    const plain = await get(edge.url, PLAIN_PATH, { "accept-encoding": "br, gzip" });
    expect(plain.status).toBe(200);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.bytes.toString("utf8")).toBe(PLAIN);
    expect(varies(plain)).toBe(false);
  });

  it("answers a Range request from the identity bytes, never a coded sibling", async () => {
    const response = await get(edge.url, APP_PATH, { "accept-encoding": "br, gzip", range: "bytes=0-9" });
    expect(response.status).toBe(206);
    expect(response.headers["content-encoding"]).toBeUndefined();
    expect(response.headers["content-range"]).toBe(`bytes 0-9/${Buffer.byteLength(APP)}`);
    expect(response.bytes.toString("utf8")).toBe(APP.slice(0, 10));
    expect(varies(response)).toBe(true);
  });

  it("answers HEAD with the sibling's headers and no body", async () => {
    const response = await get(edge.url, APP_PATH, { "accept-encoding": "br" }, "HEAD");
    expect(response.status).toBe(200);
    expect(response.headers["content-encoding"]).toBe("br");
    expect(response.headers["content-length"]).toBe(String(sizes.appBr));
    expect(response.bytes.length).toBe(0);
  });

  it("gives each coding its own ETag and the identity file's Last-Modified, and answers 304 on them", async () => {
    const identity = await get(edge.url, APP_PATH);
    const br = await get(edge.url, APP_PATH, { "accept-encoding": "br" });
    const gz = await get(edge.url, APP_PATH, { "accept-encoding": "gzip" });
    const etags = [identity, br, gz].map((response) => String(response.headers.etag));
    expect(new Set(etags).size).toBe(3);
    const file = await stat(join(dist, "assets/app-Ef56Gh78.js"));
    const base = `${file.size.toString(16)}-${file.mtime.getTime().toString(16)}`;
    expect(identity.headers.etag).toBe(`W/"${base}"`);
    expect(br.headers.etag).toBe(`W/"${base}-br"`);
    expect(gz.headers.etag).toBe(`W/"${base}-gzip"`);
    expect(br.headers["last-modified"]).toBe(identity.headers["last-modified"]);
    expect(br.headers["last-modified"]).toBe(file.mtime.toUTCString());

    const notModified = await get(edge.url, APP_PATH, {
      "accept-encoding": "br",
      "if-none-match": String(br.headers.etag),
    });
    expect(notModified.status).toBe(304);
    expect(notModified.bytes.length).toBe(0);
    expect(notModified.headers.etag).toBe(br.headers.etag);
    expect(varies(notModified)).toBe(true);
    const sinceModified = await get(edge.url, APP_PATH, {
      "accept-encoding": "br",
      "if-modified-since": String(identity.headers["last-modified"]),
    });
    expect(sinceModified.status).toBe(304);
    // The identity's ETag does not validate the br representation (nor the other way round).
    const otherRepresentation = await get(edge.url, APP_PATH, {
      "accept-encoding": "br",
      "if-none-match": String(identity.headers.etag),
    });
    expect(otherRepresentation.status).toBe(200);
    expect(brotliDecompressSync(otherRepresentation.bytes).toString("utf8")).toBe(APP);
    const identityAgainstBr = await get(edge.url, APP_PATH, { "if-none-match": String(br.headers.etag) });
    expect(identityAgainstBr.status).toBe(200);
    expect(identityAgainstBr.bytes.toString("utf8")).toBe(APP);
  });

  it("sends index.html's sibling for the app's client-side routes too, revalidated", async () => {
    for (const path of ["/console/", "/console/usage", "/console/index.html"]) {
      const response = await get(edge.url, path, { "accept-encoding": "br" });
      expect(response.status, path).toBe(200);
      expect(response.headers["content-encoding"], path).toBe("br");
      expect(response.headers["content-length"], path).toBe(String(sizes.indexBr));
      expect(response.headers["content-type"], path).toMatch(/^text\/html/);
      expect(response.headers["cache-control"], path).toBe("no-cache");
      expect(response.headers["content-security-policy"], path).toBe(CONSOLE_CSP);
      expect(brotliDecompressSync(response.bytes).toString("utf8"), path).toBe(INDEX);
      expect(varies(response), path).toBe(true);
    }
  });

  it("never sends a coded sibling as a missing asset or outside the console", async () => {
    const missing = await get(edge.url, "/console/assets/app-OldBuild.js", { "accept-encoding": "br" });
    expect(missing.status).toBe(404);
    expect(missing.headers["content-encoding"]).toBeUndefined();
    const traversal = await get(edge.url, "/console/assets/%2e%2e/index.html", { "accept-encoding": "br" });
    expect(traversal.status).toBe(404);
    expect(traversal.headers["content-encoding"]).toBeUndefined();
  });
});
