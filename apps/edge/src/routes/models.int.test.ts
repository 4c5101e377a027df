import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EdgeHarness, startEdgeHarness } from "../test/harness.js";
import { readError } from "../test/http.js";
import { testKey } from "../test/principals.js";

const key = testKey("acct-models");
const admin = testKey("acct-models", { management: true });
let edge: EdgeHarness;

beforeAll(async () => {
  edge = await startEdgeHarness({ keys: [key, admin] });
});

afterAll(async () => {
  await edge?.stop();
});

describe("GET /v1/models", () => {
  it("lists the models this gateway can serve in OpenAI's shape, through the SDK", async () => {
    const client = new OpenAI({ apiKey: key.secret, baseURL: `${edge.url}/v1`, maxRetries: 0 });
    const ids = [];
    for await (const model of client.models.list()) ids.push(model.id);
    // mistral has no credentials here, so its model is not usable and not listed.
    expect(ids).toEqual([
      "anthropic/claude-test",
      "demo/echo",
      "google/embed-test",
      "google/gemini-test",
      "openai/gpt-4o-mini",
      "test/backup-only",
      "test/embed",
      "test/embed-compat",
      "test/failover",
    ]);
  });

  it("carries name, context, per-token USD prices of the cheapest endpoint and supported parameters", async () => {
    const response = await fetch(`${edge.url}/v1/models`, {
      headers: { authorization: `Bearer ${key.secret}` },
    });
    const body = (await response.json()) as { object: string; data: Record<string, unknown>[] };
    expect(body.object).toBe("list");
    expect(body.data.find((model) => model.id === "openai/gpt-4o-mini")).toEqual({
      id: "openai/gpt-4o-mini",
      canonical_slug: "openai/gpt-4o-mini",
      object: "model",
      owned_by: "openai",
      name: "openai/gpt-4o-mini",
      created: 1_700_000_000,
      description: "openai/gpt-4o-mini, a chat model by openai.",
      context_length: 128_000,
      architecture: {
        modality: "text->text",
        input_modalities: ["text"],
        output_modalities: ["text"],
        tokenizer: "GPT",
        instruct_type: null,
      },
      pricing: {
        prompt: "0.00000015",
        completion: "0.0000006",
        request: "0",
        image: "0",
        input_cache_read: "0",
        input_cache_write: "0",
        internal_reasoning: "0",
      },
      top_provider: { context_length: 128_000, max_completion_tokens: 16_384, is_moderated: false },
      per_request_limits: null,
      supported_parameters: ["max_tokens", "stream", "temperature"],
      default_parameters: null,
      supported_voices: null,
      links: { details: "/api/v1/models/openai/gpt-4o-mini/endpoints" },
    });
    expect(body).toMatchObject({ total_count: body.data.length, links: { next: null } });
  });

  it("retrieves one model by id, and 404s for an unknown or unusable one", async () => {
    const client = new OpenAI({ apiKey: key.secret, baseURL: `${edge.url}/v1`, maxRetries: 0 });
    const model = await client.models.retrieve("openai/gpt-4o-mini");
    expect(model).toMatchObject({ id: "openai/gpt-4o-mini", object: "model", owned_by: "openai" });
    await expect(client.models.retrieve("nope/missing")).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    const unusable = await readError(
      await fetch(`${edge.url}/v1/models/mistral/unconfigured`, {
        headers: { authorization: `Bearer ${key.secret}` },
      }),
    );
    expect([unusable.status, unusable.type, unusable.reason]).toEqual([
      404,
      "not_found_error",
      "model_not_found",
    ]);
  });

  it("needs an API key: 401 without one, 403 for a management key", async () => {
    const missing = await readError(await fetch(`${edge.url}/v1/models`));
    expect(missing).toMatchObject({ status: 401, message: "missing or invalid Authorization header" });
    const management = await readError(
      await fetch(`${edge.url}/v1/models`, { headers: { authorization: `Bearer ${admin.secret}` } }),
    );
    expect(management.status).toBe(403);
  });
});

describe("GET /api/v1/models/user", () => {
  const list = async (query: string, secret = key.secret) => {
    const response = await fetch(`${edge.url}/api/v1/models/user${query}`, {
      headers: { authorization: `Bearer ${secret}` },
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  it("is the edge's own per-key list (not the key service's public catalogue) in OpenRouter's envelope", async () => {
    // KEYS_HTTP_URL points nowhere in this harness: a forwarded request would be a 503.
    const { status, body } = await list("");
    expect(status).toBe(200);
    const v1 = await fetch(`${edge.url}/v1/models`, { headers: { authorization: `Bearer ${key.secret}` } });
    expect(body).toEqual(await v1.json());
    expect(body).toMatchObject({ object: "list", total_count: 9, links: { next: null } });
  });

  it("filters by ?supported_parameters= (every name) and refuses a malformed one with a 400", async () => {
    // Every test endpoint supports max_tokens, temperature and stream, and none tools.
    const all = await list("?supported_parameters=temperature,stream");
    expect(all.body.total_count).toBe(9);
    const tools = await list("?supported_parameters=stream,tools");
    expect(tools.body).toMatchObject({ data: [], total_count: 0 });
    const bad = await readError(
      await fetch(`${edge.url}/api/v1/models/user?category=cooking`, {
        headers: { authorization: `Bearer ${key.secret}` },
      }),
    );
    expect(bad.status).toBe(400);
    expect(bad.message).toMatch(/^category: expected one of/);
  });

  it("needs an API key: 401 without one", async () => {
    const missing = await readError(await fetch(`${edge.url}/api/v1/models/user`));
    expect(missing.status).toBe(401);
  });
});
