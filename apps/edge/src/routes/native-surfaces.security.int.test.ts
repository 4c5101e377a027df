import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EdgeHarness, startEdgeHarness } from "../test/harness.js";
import { testKey } from "../test/principals.js";

// Every native surface keeps the key's scope and answers refusals in its own error shape.

const narrowModels = testKey("acct-scope", { allowedModels: { values: ["demo/echo"] } });
const openaiOnly = testKey("acct-scope", { allowedProviders: { values: ["openai"] } });
const management = testKey("acct-scope", { management: true });
let edge: EdgeHarness;

beforeAll(async () => {
  edge = await startEdgeHarness({ keys: [narrowModels, openaiOnly, management] });
});

afterAll(async () => {
  await edge?.stop();
});

const post = (path: string, headers: Record<string, string>, body: unknown) =>
  fetch(`${edge.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

const messages = (secret: string, model: string, path = "/v1/messages") =>
  post(path, { "x-api-key": secret }, { model, max_tokens: 5, messages: [{ role: "user", content: "x" }] });
const generate = (secret: string, model: string, method = "generateContent") =>
  post(
    `/v1beta/models/${model}:${method}`,
    { "x-goog-api-key": secret },
    { contents: [{ parts: [{ text: "x" }] }] },
  );
const embed = (secret: string, model: string) =>
  post("/v1/embeddings", { authorization: `Bearer ${secret}` }, { model, input: "x" });

describe("native surfaces stay inside the key's scope", () => {
  it("refuses models outside the allow-list with 403 in each surface's shape, before any provider", async () => {
    const admits = edge.billing.admits.length;
    const anthropic = await messages(narrowModels.secret, "claude-test");
    expect(anthropic.status).toBe(403);
    expect(await anthropic.json()).toMatchObject({
      type: "error",
      error: { type: "permission_error", code: "model_not_allowed" },
    });
    const counted = await messages(narrowModels.secret, "claude-test", "/v1/messages/count_tokens");
    expect(counted.status).toBe(403);
    const gemini = await generate(narrowModels.secret, "gemini-test");
    expect(gemini.status).toBe(403);
    expect(await gemini.json()).toMatchObject({ error: { code: 403, status: "PERMISSION_DENIED" } });
    expect((await generate(narrowModels.secret, "gemini-test", "countTokens")).status).toBe(403);
    const embedding = await embed(narrowModels.secret, "test/embed");
    expect(embedding.status).toBe(403);
    expect(await embedding.json()).toMatchObject({
      error: { type: "permission_error", metadata: { reason: "model_not_allowed" } },
    });
    expect(edge.billing.admits.length).toBe(admits);
    expect(edge.anthropic.requests()).toHaveLength(0);
    expect(edge.gemini.requests()).toHaveLength(0);
  });

  it("refuses providers outside the allow-list on every surface", async () => {
    const anthropic = await messages(openaiOnly.secret, "claude-test");
    expect(await anthropic.json()).toMatchObject({
      error: { type: "permission_error", code: "provider_not_allowed" },
    });
    const gemini = await generate(openaiOnly.secret, "gemini-test");
    expect(gemini.status).toBe(403);
    const embeddings = await embed(openaiOnly.secret, "google/embed-test");
    expect(embeddings.status).toBe(403);
    expect(edge.gemini.requests()).toHaveLength(0);
  });

  it("refuses management keys and missing keys in each surface's shape", async () => {
    const anthropic = await messages(management.secret, "claude-test");
    expect(anthropic.status).toBe(403);
    expect(await anthropic.json()).toMatchObject({ type: "error", error: { type: "permission_error" } });
    const gemini = await generate(management.secret, "gemini-test");
    expect(await gemini.json()).toMatchObject({ error: { code: 403, status: "PERMISSION_DENIED" } });
    const anonymous = await post("/v1/messages", {}, { model: "claude-test", max_tokens: 5, messages: [] });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ type: "error", error: { type: "authentication_error" } });
    const batches = await fetch(`${edge.url}/v1/messages/batches`, {
      headers: { "x-api-key": management.secret },
    });
    expect(batches.status).toBe(403);
  });

  it("answers the batches API with a 503 in Anthropic's shape when no batch store is configured", async () => {
    const response = await fetch(`${edge.url}/v1/messages/batches/msgbatch_x`, {
      headers: { "x-api-key": narrowModels.secret },
    });
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ type: "error", error: { code: "batches_not_configured" } });
  });
});
