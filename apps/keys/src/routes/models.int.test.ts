import { describeWith } from "@gw/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EndpointJson, ModelJson } from "../catalog/views.js";
import { createApiKey } from "../operator.js";
import { type KeysHarness, startKeysHarness } from "../test/harness.js";

describeWith(["postgres"], "model REST routes", () => {
  let harness: KeysHarness;
  let apiKey: string;

  beforeAll(async () => {
    harness = await startKeysHarness();
    const account = await harness.account();
    apiKey = (await createApiKey(harness.database, { accountId: account.accountId, name: "reader" })).key;
  });

  afterAll(async () => {
    await harness?.close();
  });

  describe("GET /api/v1/models", () => {
    it("lists the catalogue publicly with per-token prices", async () => {
      const response = await harness.request("GET", "/api/v1/models");
      expect(response.status).toBe(200);
      expect(response.body.object).toBe("list");
      const models = response.body.data as ModelJson[];
      expect(models.map((model) => model.id)).toEqual([
        "openai/gpt-4o-mini",
        "meta-llama/llama-3.3-70b-instruct",
      ]);
      expect(models[0]).toEqual({
        id: "openai/gpt-4o-mini",
        object: "model",
        created: 1721172741,
        owned_by: "openai",
        name: "OpenAI: GPT-4o mini",
        context_length: 128_000,
        pricing: { prompt: 0.00000015, completion: 0.0000006, request: 0, image: 0 },
        supported_parameters: ["max_tokens", "stream", "tools"],
      });
      expect(models[1]?.supported_parameters).toEqual(["max_tokens", "stream", "response_format"]);
    });
  });

  describe("GET /api/v1/models/:author/:slug/endpoints", () => {
    it("lists every provider endpoint with the spec's fields", async () => {
      const response = await harness.request(
        "GET",
        "/api/v1/models/meta-llama/llama-3.3-70b-instruct/endpoints",
        {
          key: apiKey,
        },
      );
      expect(response.status).toBe(200);
      const endpoints = response.body.data as EndpointJson[];
      expect(endpoints).toEqual([
        {
          provider_id: "together",
          provider_name: "Together",
          model: "meta-llama/llama-3.3-70b-instruct",
          context_length: 131_072,
          max_completion_tokens: 8_192,
          pricing: { prompt: 0.00000088, completion: 0.00000088, request: 0.000001, image: 0 },
          quantization: "fp8",
          is_zdr: true,
          supported_parameters: ["max_tokens", "stream", "response_format"],
          status: null,
          uptime_last_30m: null,
          latency_last_30m: null,
          throughput_last_30m: null,
        },
        {
          provider_id: "demo",
          provider_name: "Demo",
          model: "meta-llama/llama-3.3-70b-instruct",
          context_length: 8_192,
          max_completion_tokens: 1_024,
          pricing: { prompt: 0, completion: 0, request: 0, image: 0 },
          quantization: null,
          is_zdr: false,
          supported_parameters: ["max_tokens"],
          status: null,
          uptime_last_30m: null,
          latency_last_30m: null,
          throughput_last_30m: null,
        },
      ]);
    });

    it("answers 404 not_found_error for an unknown model", async () => {
      const response = await harness.request("GET", "/api/v1/models/acme/nothing/endpoints", { key: apiKey });
      expect(response.status).toBe(404);
      expect(response.body.error).toMatchObject({ type: "not_found_error", code: "model_not_found" });
    });

    it("requires a key, as every non-public route does", async () => {
      const response = await harness.request("GET", "/api/v1/models/openai/gpt-4o-mini/endpoints");
      expect(response.status).toBe(401);
    });
  });
});
