import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type FakeProviders, startFakeProviders } from "./index.js";

const KEY = "shared-key";
let fakes: FakeProviders;

beforeAll(async () => {
  fakes = await startFakeProviders({ apiKey: KEY });
});
afterAll(() => fakes.close());
beforeEach(() => fakes.reset());

function chat(scenario?: string) {
  return fetch(`${fakes.openai.baseUrl}/chat/completions`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${KEY}`,
      "content-type": "application/json",
      ...(scenario ? { "x-fake-scenario": scenario } : {}),
    },
    body: JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content: "Hi" }] }),
  });
}

function control(method: string, path: string, body?: unknown) {
  return fetch(`${fakes.openai.url}/__fake/${path}`, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

describe("startFakeProviders", () => {
  it("starts all three on loopback with the base URLs their SDKs take", () => {
    expect(fakes.openai.baseUrl).toBe(`http://127.0.0.1:${fakes.openai.port}/v1`);
    expect(fakes.anthropic.baseUrl).toBe(`http://127.0.0.1:${fakes.anthropic.port}`);
    expect(fakes.gemini.baseUrl).toBe(`http://127.0.0.1:${fakes.gemini.port}`);
    expect(new Set([fakes.openai.port, fakes.anthropic.port, fakes.gemini.port]).size).toBe(3);
  });

  it("frees the servers it started when one port is taken", async () => {
    await expect(startFakeProviders({ gemini: { port: fakes.openai.port } })).rejects.toThrow(/EADDRINUSE/);
  });

  it("ends hung requests when closed", async () => {
    const other = await startFakeProviders();
    const hung = fetch(`${other.openai.baseUrl}/models`, {
      headers: { authorization: "Bearer x", "x-fake-scenario": "hang" },
    });
    await expect.poll(() => other.openai.requests().length).toBe(1);
    const started = Date.now();
    await other.close();
    await expect(hung).rejects.toThrow();
    // A hung request would otherwise keep close() waiting forever.
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe("control endpoints", () => {
  it("hold a scenario for the given number of requests", async () => {
    const set = await control("POST", "scenario", { name: "fail", status: 502, times: 2 });
    expect(set.status).toBe(200);
    expect((await chat()).status).toBe(502);
    const remaining = (await (await control("GET", "scenario")).json()) as { scenarios: unknown[] };
    expect(remaining.scenarios).toEqual([{ name: "fail", status: 502, times: 1 }]);
    expect((await chat()).status).toBe(502);
    expect((await chat()).status).toBe(200);
  });

  it("apply only to the path given, until reset", async () => {
    await control("POST", "scenario", [{ name: "rate-limit", retry_after: 5, path: "/v1/embeddings" }]);
    expect((await chat()).status).toBe(200);
    const limited = await fetch(`${fakes.openai.baseUrl}/embeddings`, {
      method: "POST",
      headers: { authorization: `Bearer ${KEY}` },
      body: JSON.stringify({ model: "text-embedding-3-small", input: "x" }),
    });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("5");
    expect((await control("DELETE", "scenario")).status).toBe(204);
    await expect((await control("GET", "scenario")).json()).resolves.toEqual({ scenarios: [] });
  });

  it("let a request's own header win over the server's scenario", async () => {
    fakes.openai.setScenario({ name: "fail", status: 500 });
    expect((await chat("no-usage")).status).toBe(200);
    expect((await chat()).status).toBe(500);
  });

  it("refuse unknown scenarios, on the control route and in the header", async () => {
    expect((await control("POST", "scenario", { name: "explode" })).status).toBe(400);
    const response = await chat("explode");
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { type: "invalid_request_error" } });
  });

  it("list the last requests with headers and bodies, and clear them", async () => {
    await chat();
    await chat("no-usage");
    const listed = (await (await control("GET", "requests?limit=1")).json()) as {
      requests: { path: string; headers: Record<string, string>; body: { model: string } }[];
    };
    expect(listed.requests).toHaveLength(1);
    expect(listed.requests[0]?.headers["x-fake-scenario"]).toBe("no-usage");
    expect(listed.requests[0]?.body.model).toBe("gpt-4o-mini");
    expect(listed.requests[0]?.path).toBe("/v1/chat/completions");
    expect((await control("DELETE", "requests")).status).toBe(204);
    expect(fakes.openai.requests()).toEqual([]);
  });

  it("are not logged and answer health", async () => {
    await control("GET", "health");
    expect(fakes.openai.requests()).toEqual([]);
    expect(await (await control("GET", "health")).json()).toEqual({ ok: true, provider: "openai" });
  });

  it("answer a body that is not JSON in the provider's shape", async () => {
    const response = await fetch(`${fakes.anthropic.url}/v1/messages`, {
      method: "POST",
      headers: { "x-api-key": KEY, "anthropic-version": "2023-06-01" },
      body: "{not json",
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ type: "error", error: { type: "invalid_request_error" } });
    expect(fakes.anthropic.requests()[0]?.body).toBe("{not json");
  });
});
