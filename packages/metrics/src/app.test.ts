import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppMetrics, startAppMetrics } from "./app.js";

// A control-plane app's production wiring: its requests are counted by route, and /metrics is served
// on METRICS_PORT only; without METRICS_PORT nothing listens.

describe("startAppMetrics", () => {
  let app: Server;
  let appUrl: string;
  let metrics: AppMetrics;

  beforeAll(async () => {
    // Stands in for express: a matched route leaves `route.path` on the request.
    app = createServer((request, response) => {
      if (request.url === "/api/v1/keys") Object.assign(request, { route: { path: "/api/v1/keys" } });
      response.statusCode = request.url === "/api/v1/keys" ? 200 : 404;
      response.end();
    });
    await new Promise<void>((resolve) => app.listen(0, "127.0.0.1", resolve));
    appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
    metrics = await startAppMetrics("billing", { host: "127.0.0.1", port: 0, httpUrl: appUrl });
  });
  afterAll(async () => {
    await metrics.stop();
    await new Promise((resolve) => app.close(resolve));
  });

  it("counts the app's requests by route pattern and serves them on its own port", async () => {
    await fetch(`${appUrl}/api/v1/keys`);
    await fetch(`${appUrl}/acct-secret-path-123`);
    const text = await (await fetch(metrics.url as string)).text();
    expect(text).toMatch(
      /^gw_http_requests_total\{app="billing",surface="management",method="GET",route="\/api\/v1\/keys",status="200"\} 1$/m,
    );
    expect(text).toMatch(/route="unmatched",status="404"\} 1$/m);
    expect(text).not.toContain("acct-secret-path-123");
    expect((await fetch(`${appUrl}/metrics`)).status).toBe(404);
  });

  it("starts nothing without METRICS_PORT", async () => {
    const off = await startAppMetrics("keys", { host: "127.0.0.1", port: undefined, httpUrl: appUrl });
    expect(off.url).toBeUndefined();
    await off.stop();
  });
});
