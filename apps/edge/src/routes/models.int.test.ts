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
      object: "model",
      created: 1_700_000_000,
      owned_by: "openai",
      name: "openai/gpt-4o-mini",
      context_length: 128_000,
      pricing: { prompt: 0.00000015, completion: 0.0000006, request: 0, image: 0 },
      supported_parameters: ["max_tokens", "stream", "temperature"],
    });
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
    expect([unusable.status, unusable.type, unusable.code]).toEqual([
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
