import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { Target } from "../targets/target.js";
import { runLoad } from "./generator.js";

let server: Server | undefined;

afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** A loopback target answering every request with `status` and a small body. */
async function target(status: number, errorBody = '{"status":"failure"}'): Promise<Target> {
  server = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      response.writeHead(status, {
        "content-type": status === 200 ? "text/event-stream" : "application/json",
      });
      response.end(status === 200 ? "data: {}\n\ndata: [DONE]\n\n" : errorBody);
    });
  });
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    name: "direct",
    description: "loopback",
    url: `http://127.0.0.1:${port}/v1/chat/completions`,
    headers: { "content-type": "application/json" },
    model: "m",
    pids: () => [],
    processes: () => ({}),
    services: [],
    stop: async () => {},
  };
}

describe("runLoad on streams", () => {
  it("measures time to first byte on successful streams", async () => {
    const result = await runLoad(await target(200), { kind: "closed", connections: 2, requests: 6 }, true);
    expect(result.errors).toBe(0);
    expect(result.ttfbP50).toBeGreaterThan(0);
  });

  it("reports no time to first byte when every answer is an error (Portkey's 500s)", async () => {
    const result = await runLoad(await target(500), { kind: "closed", connections: 2, requests: 6 }, true);
    expect(result.errors).toBe(6);
    expect(result.ttfbP50).toBeUndefined();
    expect(result.ttfbP99).toBeUndefined();
  });

  it("counts failures by the reason the error body gives, not by status alone", async () => {
    const body = JSON.stringify({
      error: { message: "billing service is unavailable", metadata: { reason: "dependency_unavailable" } },
    });
    const result = await runLoad(
      await target(503, body),
      { kind: "closed", connections: 2, requests: 4 },
      true,
    );
    expect(result.failures).toEqual({ "HTTP 503 dependency_unavailable: billing service is unavailable": 4 });
  });
});
