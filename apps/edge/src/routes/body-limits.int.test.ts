import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EdgeHarness, startEdgeHarness } from "../test/harness.js";
import { testKey } from "../test/principals.js";

const key = testKey("acct-body-limits");
let edge: EdgeHarness;

beforeAll(async () => {
  edge = await startEdgeHarness({ keys: [key], settings: { bodyTimeoutMs: 300 } });
});

afterAll(async () => {
  await edge?.stop();
});

/** Sends the headers and part of a body, then nothing: the answer, or "closed" when none came. */
function stalledPost(path: string): Promise<{ status: number; body: string }> {
  const url = new URL(edge.url);
  return new Promise((resolve, reject) => {
    const call = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: "POST",
        path,
        headers: {
          authorization: `Bearer ${key.secret}`,
          "content-type": "application/json",
          "content-length": "1000",
        },
      },
      (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          body += chunk;
        });
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    call.on("error", reject);
    call.write('{"model":"openai/gpt-4o-mini","messages":[');
  });
}

describe("the edge's body layer", () => {
  it("answers a body that never completes 408 in the surface's shape, and calls no provider", async () => {
    const openai = await stalledPost("/v1/chat/completions");
    expect(openai.status).toBe(408);
    expect(JSON.parse(openai.body)).toMatchObject({ error: { metadata: { reason: "body_timeout" } } });
    const anthropic = await stalledPost("/v1/messages");
    expect(anthropic.status).toBe(408);
    expect(JSON.parse(anthropic.body)).toMatchObject({ type: "error", error: { type: "timeout_error" } });
    expect(edge.primary.requests()).toEqual([]);
  });

  it("refuses JSON nested deeper than 64 with a 400, not a 5xx, and counts nothing against a provider", async () => {
    const deep = `${"[".repeat(10_000)}${"]".repeat(10_000)}`;
    const response = await fetch(`${edge.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${key.secret}`, "content-type": "application/json" },
      body: `{"model":"openai/gpt-4o-mini","messages":[{"role":"user","content":${deep}}]}`,
    });
    expect(response.status).toBe(400);
    expect(
      ((await response.json()) as { error: { metadata: { reason: string } } }).error.metadata.reason,
    ).toBe("json_too_deep");
    expect(edge.primary.requests()).toEqual([]);
  });
});
