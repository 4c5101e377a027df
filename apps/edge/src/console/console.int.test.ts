import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { memoryLogger } from "@gw/logger";
import { registry } from "@gw/metrics";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EdgeHarness, startEdgeHarness } from "../test/harness.js";
import { CONSOLE_CSP } from "./headers.js";

// The edge serving a built console (a fixture dist in a temporary folder) at /console, through the
// production wiring (CONSOLE_DIR / CONSOLE_ENABLED read by loadEdgeConfig).

const INDEX =
  '<!doctype html><html><head><script type="module" src="/console/assets/index-Ab12Cd34.js"></script></head><body><div id="root"></div></body></html>\n';
const SCRIPT = "console.log('console bundle');\n";

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** Sends the target exactly as written: fetch and URL would resolve `%2e%2e` and `..` before sending. */
function raw(
  base: string,
  target: string,
  init: { method?: string; accept?: string } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const call = httpRequest(
      base,
      { method: init.method ?? "GET", path: target, headers: { accept: init.accept ?? "*/*" } },
      (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          body += chunk;
        });
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
        );
      },
    );
    call.on("error", reject);
    call.end();
  });
}

function expectStrictHeaders(response: RawResponse): void {
  expect(response.headers["content-security-policy"]).toBe(CONSOLE_CSP);
  expect(response.headers["x-content-type-options"]).toBe("nosniff");
  expect(response.headers["x-frame-options"]).toBe("DENY");
  expect(response.headers["referrer-policy"]).toBe("no-referrer");
}

/** The edge's request counts whose route label mentions the console, per route and surface. */
async function consoleCounts(): Promise<{ route: string; surface: string; count: number }[]> {
  const metric = await registry.getSingleMetric("gw_http_requests_total")?.get();
  return (metric?.values ?? [])
    .filter((value) => value.labels.app === "edge" && String(value.labels.route).includes("console"))
    .map((value) => ({
      route: String(value.labels.route),
      surface: String(value.labels.surface),
      count: value.value,
    }));
}

let root: string;
let dist: string;
let served: EdgeHarness;
let unbuilt: EdgeHarness;
let disabled: EdgeHarness;
const servedLog = memoryLogger("info");
const disabledLog = memoryLogger("info");

/** The fields of the edge's "edge listening" line. */
function listeningLine(lines: string[]): Record<string, unknown> | undefined {
  return lines
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .find((line) => line.msg === "edge listening");
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "gw-console-"));
  dist = join(root, "dist");
  await mkdir(join(dist, "assets"), { recursive: true });
  await writeFile(join(dist, "index.html"), INDEX);
  await writeFile(join(dist, "assets", "index-Ab12Cd34.js"), SCRIPT);
  await writeFile(join(dist, "favicon.svg"), "<svg xmlns='http://www.w3.org/2000/svg'/>");
  await writeFile(join(dist, ".env"), "SECRET=do-not-serve");
  // Beside dist, where a traversal would land.
  await writeFile(join(root, "outside.txt"), "outside the console");
  [served, unbuilt, disabled] = await Promise.all([
    startEdgeHarness({ keys: [], env: { CONSOLE_DIR: dist }, logger: servedLog.logger }),
    startEdgeHarness({ keys: [], env: { CONSOLE_DIR: join(root, "missing") } }),
    startEdgeHarness({
      keys: [],
      env: { CONSOLE_DIR: dist, CONSOLE_ENABLED: "false" },
      logger: disabledLog.logger,
    }),
  ]);
});

afterAll(async () => {
  await Promise.all([served?.stop(), unbuilt?.stop(), disabled?.stop()]);
  if (root) await rm(root, { recursive: true, force: true });
});

describe("edge: the web console at /console", () => {
  it("redirects /console to /console/, keeping the query", async () => {
    const response = await raw(served.url, "/console?next=keys");
    expect(response.status).toBe(308);
    expect(response.headers.location).toBe("/console/?next=keys");
  });

  it("serves index.html at /console/ with no-cache and the strict headers", async () => {
    const response = await raw(served.url, "/console/");
    expect(response.status).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^text\/html/);
    expect(response.headers["cache-control"]).toBe("no-cache");
    expect(response.body).toBe(INDEX);
    expectStrictHeaders(response);
  });

  it("serves hashed assets as immutable for a year, with the strict headers", async () => {
    const response = await raw(served.url, "/console/assets/index-Ab12Cd34.js");
    expect(response.status).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^text\/javascript|^application\/javascript/);
    expect(response.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(response.body).toBe(SCRIPT);
    expectStrictHeaders(response);
  });

  it("answers a failed precondition 412 and an unsatisfiable range 416, as the static server decides (issue 33: both were 500s)", async () => {
    const get = (path: string, headers: Record<string, string>) =>
      fetch(`${served.url}${path}`, { headers: { "accept-encoding": "identity", ...headers } });
    for (const path of [
      "/console/",
      "/console/keys",
      "/console/assets/index-Ab12Cd34.js",
      "/console/favicon.svg",
    ]) {
      const ifMatch = await get(path, { "if-match": '"not-this-one"' });
      expect(ifMatch.status, `${path} If-Match`).toBe(412);
      const unmodified = await get(path, { "if-unmodified-since": "Thu, 01 Jan 1970 00:00:00 GMT" });
      expect(unmodified.status, `${path} If-Unmodified-Since`).toBe(412);
      const range = await get(path, { range: "bytes=999999-" });
      expect(range.status, `${path} Range`).toBe(416);
      expect(range.headers.get("content-range"), path).toMatch(/^bytes \*\/\d+$/);
      expect(range.headers.get("content-security-policy"), path).toBe(CONSOLE_CSP);
    }
    // A missing hashed asset is still a 404, and a satisfiable range is served.
    expect((await get("/console/assets/missing-00000000.js", {})).status).toBe(404);
    const part = await get("/console/assets/index-Ab12Cd34.js", { range: "bytes=0-6" });
    expect(part.status).toBe(206);
    expect(await part.text()).toBe(SCRIPT.slice(0, 7));
  });

  it("revalidates files outside assets/", async () => {
    const response = await raw(served.url, "/console/favicon.svg");
    expect(response.status).toBe(200);
    expect(response.headers["cache-control"]).toBe("no-cache");
  });

  it("answers any other GET or HEAD under /console with index.html (the app routes on the client)", async () => {
    for (const path of ["/console/usage", "/console/operator/accounts", "/console/generations?id=gen-1"]) {
      const response = await raw(served.url, path);
      expect(response.status, path).toBe(200);
      expect(response.body, path).toBe(INDEX);
      expect(response.headers["cache-control"], path).toBe("no-cache");
      expectStrictHeaders(response);
    }
    const head = await raw(served.url, "/console/keys", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers["content-type"]).toMatch(/^text\/html/);
    expect(head.body).toBe("");
  });

  it("does not answer other methods with the page", async () => {
    const response = await raw(served.url, "/console/keys", { method: "POST" });
    expect(response.status).toBe(404);
    expect(response.body).not.toContain('<div id="root">');
  });

  it("answers a missing hashed asset 404, never the page in its place", async () => {
    const response = await raw(served.url, "/console/assets/index-OldBuild1.js");
    expect(response.status).toBe(404);
    expect(response.body).not.toContain("<html");
    expect(response.headers["cache-control"]).toBe("no-cache");
    expectStrictHeaders(response);
  });

  it("refuses dot-segments, plain and percent-encoded, without reading outside dist", async () => {
    const targets = [
      "/console/../outside.txt",
      "/console/%2e%2e/outside.txt",
      "/console/%2E%2E/outside.txt",
      "/console/assets/%2e%2e/%2e%2e/outside.txt",
      "/console/..%2foutside.txt",
      "/console/%2e%2e%2foutside.txt",
      "/console/..%5coutside.txt",
      "/console/./index.html",
      "/console/%00",
    ];
    for (const target of targets) {
      const response = await raw(served.url, target);
      expect(response.body, target).not.toContain("outside the console");
      expect(response.status, target).toBeGreaterThanOrEqual(400);
      expect(response.status, target).toBeLessThan(500);
    }
  });

  it("does not serve dotfiles", async () => {
    const response = await raw(served.url, "/console/.env");
    expect(response.body).not.toContain("do-not-serve");
  });

  it("leaves paths that only start with the prefix to the API", async () => {
    const response = await raw(served.url, "/consoles");
    expect(response.status).toBe(404);
    expect(response.headers["content-type"]).toMatch(/^application\/json/);
    expect(response.headers["content-security-policy"]).toBeUndefined();
  });

  it("answers 503 saying the console is not built when CONSOLE_DIR has no build, as a page or JSON", async () => {
    const page = await raw(unbuilt.url, "/console/usage", { accept: "text/html" });
    expect(page.status).toBe(503);
    expect(page.headers["content-type"]).toMatch(/^text\/html/);
    expect(page.body).toContain("The web console is not built");
    expectStrictHeaders(page);
    const json = await raw(unbuilt.url, "/console/", { accept: "application/json" });
    expect(json.status).toBe(503);
    expect(JSON.parse(json.body)).toMatchObject({ error: { code: "console_not_built" } });
    // The rest of the edge is up.
    expect((await raw(unbuilt.url, "/healthz")).status).toBe(200);
  });

  it("logs the console's URL when the edge starts listening (the split-plane edge's startup line)", async () => {
    expect(served.consoleUrl).toBe(`${served.url}/console/`);
    expect(listeningLine(servedLog.lines())).toMatchObject({ url: served.url, console: served.consoleUrl });
    const page = await raw(served.url, new URL(String(served.consoleUrl)).pathname);
    expect(page.status).toBe(200);
    expect(page.body).toBe(INDEX);
    // Not served, not named.
    expect(disabled.consoleUrl).toBeUndefined();
    const line = listeningLine(disabledLog.lines());
    expect(line).toMatchObject({ url: disabled.url });
    expect(line).not.toHaveProperty("console");
  });

  it("is not served with CONSOLE_ENABLED=false", async () => {
    for (const path of ["/console", "/console/", "/console/assets/index-Ab12Cd34.js"]) {
      const response = await raw(disabled.url, path);
      expect(response.status, path).toBe(404);
      expect(response.body, path).not.toContain(SCRIPT.trim());
      expect(response.headers["content-type"], path).toMatch(/^application\/json/);
    }
  });

  it("labels its requests /console/* with surface console in the edge's HTTP metrics, never by the path asked", async () => {
    const before = (await consoleCounts()).reduce((sum, row) => sum + row.count, 0);
    for (const path of ["/console", "/console/", "/console/usage", "/console/assets/index-Ab12Cd34.js"])
      await raw(served.url, path);
    await expect
      .poll(async () => (await consoleCounts()).reduce((sum, row) => sum + row.count, 0))
      .toBeGreaterThanOrEqual(before + 4);
    const rows = await consoleCounts();
    expect(new Set(rows.map((row) => row.route))).toEqual(new Set(["/console/*"]));
    expect(new Set(rows.map((row) => row.surface))).toEqual(new Set(["console"]));
  });
});
