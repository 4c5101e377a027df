import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type EdgeHarness, FAKE_KEY, startEdgeHarness } from "../test/harness.js";
import { testKey } from "../test/principals.js";

const key = testKey("acct-proxy-sec");
const disabled = testKey("acct-proxy-sec", { disabled: true });
let edge: EdgeHarness;

beforeAll(async () => {
  edge = await startEdgeHarness({ keys: [key, disabled] });
});

afterAll(async () => {
  await edge?.stop();
});

beforeEach(() => {
  for (const fake of [edge.primary, edge.anthropic, edge.gemini]) fake.clearRequests();
});

const chat = { model: "gpt-4o-mini", messages: [{ role: "user", content: "secret check" }] };

describe("provider proxy: credentials never cross", () => {
  it("forwards none of the caller's credential headers, cookies or forwarding headers", async () => {
    const response = await fetch(`${edge.url}/openai/v1/chat/completions?key=${key.secret}`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${key.secret}`,
        "x-api-key": key.secret,
        "x-goog-api-key": key.secret,
        "api-key": key.secret,
        cookie: `session=${key.secret}`,
        "x-forwarded-for": "10.0.0.1",
        "content-type": "application/json",
        "x-caller-header": "kept",
      },
      body: JSON.stringify(chat),
    });
    expect(response.status).toBe(200);
    const [received] = edge.primary.requests();
    expect(received?.path).toBe("/v1/chat/completions");
    expect(received?.headers.authorization).toBe(`Bearer ${FAKE_KEY}`);
    expect(received?.headers["x-caller-header"]).toBe("kept");
    for (const name of ["x-api-key", "x-goog-api-key", "api-key", "cookie", "x-forwarded-for"])
      expect(received?.headers[name]).toBeUndefined();
    expect(JSON.stringify(received)).not.toContain(key.secret);
  });

  it("keeps the caller's other query parameters but drops ?key=", async () => {
    const response = await fetch(
      `${edge.url}/google/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse&key=${key.secret}`,
      {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ contents: [{ parts: [{ text: "query" }] }] }),
      },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    expect(await response.text()).toMatch(/^data: \{"candidates"/);
    expect(edge.gemini.requests()[0]?.path).toBe(
      "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
    );
  });

  it("never reaches state on the gateway's shared provider account (files, batches, stored responses)", async () => {
    const auth = { authorization: `Bearer ${key.secret}` };
    for (const path of [
      "/openai/v1/files",
      "/openai/v1/responses/resp_other_tenant",
      "/anthropic/v1/messages/batches",
    ]) {
      const response = await fetch(`${edge.url}${path}`, { headers: auth });
      expect(response.status).toBe(403);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe(
        "proxy_path_not_allowed",
      );
    }
    const batch = await fetch(`${edge.url}/openai/v1/batches`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ input_file_id: "file_1", endpoint: "/v1/chat/completions" }),
    });
    expect(batch.status).toBe(403);
    expect([...edge.primary.requests(), ...edge.anthropic.requests()]).toEqual([]);
  });

  it("refuses a disabled key and a non-JSON body before anything is forwarded", async () => {
    const off = await fetch(`${edge.url}/openai/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${disabled.secret}`, "content-type": "application/json" },
      body: JSON.stringify(chat),
    });
    expect(off.status).toBe(401);
    expect(((await off.json()) as { error: { code: string } }).error.code).toBe("key_disabled");
    const text = await fetch(`${edge.url}/openai/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${key.secret}`, "content-type": "text/plain" },
      body: "hello",
    });
    expect(text.status).toBe(400);
    expect(((await text.json()) as { error: { code: string } }).error.code).toBe("unsupported_content_type");
    expect(edge.primary.requests()).toEqual([]);
  });
});
