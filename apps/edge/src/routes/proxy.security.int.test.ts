import { request as httpRequest } from "node:http";
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
      // OpenRouter's envelope names the reason in metadata; Anthropic's keeps it in error.code.
      const { error } = (await response.json()) as {
        error: { code: unknown; metadata?: { reason: string } };
      };
      expect(path.startsWith("/anthropic/") ? error.code : error.metadata?.reason).toBe(
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
    expect(((await off.json()) as { error: { metadata: { reason: string } } }).error.metadata.reason).toBe(
      "key_disabled",
    );
    const text = await fetch(`${edge.url}/openai/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${key.secret}`, "content-type": "text/plain" },
      body: "hello",
    });
    expect(text.status).toBe(400);
    expect(((await text.json()) as { error: { metadata: { reason: string } } }).error.metadata.reason).toBe(
      "unsupported_content_type",
    );
    expect(edge.primary.requests()).toEqual([]);
  });
});

/** Sends the request target exactly as written (fetch would normalise it). */
function rawPost(
  target: string,
  body: unknown,
): Promise<{ status: number; body: { error?: { code?: number; metadata?: { reason?: string } } } }> {
  const url = new URL(edge.url);
  return new Promise((resolve, reject) => {
    const call = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: "POST",
        path: target,
        headers: { authorization: `Bearer ${key.secret}`, "content-type": "application/json" },
      },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          text += chunk;
        });
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, body: JSON.parse(text || "{}") }),
        );
      },
    );
    call.on("error", reject);
    call.end(JSON.stringify(body));
  });
}

describe("provider proxy: only the allow-list, in one spelling", () => {
  const gemini = { contents: [{ role: "user", parts: [{ text: "hi" }] }] };

  it("refuses raw spellings that walk around a path check, before any upstream contact", async () => {
    for (const target of [
      "/openai/v1/FILES",
      "/openai/v1/files;x=1",
      "/openai/v1/files%3b",
      "/openai/v1/files#x",
      "/openai/v1/chat/completions/../../files",
      "/google/v1beta/models/gemini-2.5-flash#/../gemini-2.5-pro:generateContent",
      "/google/v1beta/models/gemini-2.5-flash%23/../gemini-2.5-pro:generateContent",
    ]) {
      const response = await rawPost(target, target.startsWith("/google") ? gemini : chat);
      expect(response.status, target).toBe(403);
      // In the provider's own error shape: the reason in metadata, Gemini's status and message.
      if (target.startsWith("/google"))
        expect(JSON.stringify(response.body), target).toContain("does not forward");
      else expect(response.body.error?.metadata?.reason, target).toBe("proxy_path_not_allowed");
    }
    expect([...edge.primary.requests(), ...edge.gemini.requests()]).toEqual([]);
  });

  it("refuses an absolute-form request target and a provider id in another case", async () => {
    const absolute = await rawPost(`http://evil.example/openai/v1/chat/completions`, chat);
    expect(absolute.status).toBe(400);
    expect(absolute.body.error?.metadata?.reason).toBe("invalid_path");
    const shouted = await rawPost("/OPENAI/v1/chat/completions", chat);
    expect(shouted.status).toBe(404);
    expect(shouted.body.error?.metadata?.reason).toBe("route_not_found");
    expect(edge.primary.requests()).toEqual([]);
  });

  it("forwards the Responses API only statelessly, naming the field it refuses", async () => {
    const stored = await rawPost("/openai/v1/responses", { model: "gpt-4o-mini", input: "hi" });
    expect(stored.status).toBe(400);
    expect(JSON.stringify(stored.body)).toContain("store");
    const chained = await rawPost("/openai/v1/responses", {
      model: "gpt-4o-mini",
      input: "hi",
      store: false,
      previous_response_id: "resp_other_tenant",
    });
    expect(chained.status).toBe(400);
    expect(JSON.stringify(chained.body)).toContain("previous_response_id");
    expect(edge.primary.requests()).toEqual([]);
  });
});
