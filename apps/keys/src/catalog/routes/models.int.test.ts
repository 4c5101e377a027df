import type { OpenRouterModel } from "@gw/catalog";
import { describeWith } from "@gw/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "../../identity/operator.js";
import { type KeysHarness, startKeysHarness } from "../../test/harness.js";
import type { EndpointJson } from "../views.js";

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
    it("lists the catalogue publicly in OpenRouter's model object, prices as decimal strings", async () => {
      const response = await harness.request("GET", "/api/v1/models");
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ object: "list", total_count: 2, links: { next: null } });
      const models = response.body.data as OpenRouterModel[];
      expect(models.map((model) => model.id)).toEqual([
        "openai/gpt-4o-mini",
        "meta-llama/llama-3.3-70b-instruct",
      ]);
      expect(models[0]).toEqual({
        id: "openai/gpt-4o-mini",
        canonical_slug: "openai/gpt-4o-mini",
        object: "model",
        owned_by: "openai",
        name: "OpenAI: GPT-4o mini",
        created: 1721172741,
        description: "OpenAI: GPT-4o mini, a chat model by openai.",
        context_length: 128_000,
        architecture: {
          // The endpoint's catalogue modalities (test/catalog-fixture.ts: images and PDFs).
          modality: "text+image+file->text",
          input_modalities: ["text", "image", "file"],
          output_modalities: ["text"],
          tokenizer: "GPT",
          instruct_type: null,
        },
        pricing: {
          prompt: "0.00000015",
          completion: "0.0000006",
          request: "0",
          image: "0",
          input_cache_read: "0.000000075",
          input_cache_write: "0",
          internal_reasoning: "0",
        },
        top_provider: { context_length: 128_000, max_completion_tokens: 16_384, is_moderated: false },
        per_request_limits: null,
        supported_parameters: ["max_tokens", "stream", "tools"],
        default_parameters: null,
        supported_voices: null,
        links: { details: "/api/v1/models/openai/gpt-4o-mini/endpoints" },
      });
      expect(models[1]?.supported_parameters).toEqual(["max_tokens", "response_format", "stream"]);
    });

    it("keeps only models supporting every ?supported_parameters= name", async () => {
      const both = await harness.request("GET", "/api/v1/models?supported_parameters=max_tokens,stream");
      expect(both.body).toMatchObject({
        total_count: 2,
        data: [{ id: "openai/gpt-4o-mini" }, { id: "meta-llama/llama-3.3-70b-instruct" }],
      });
      const tools = await harness.request("GET", "/api/v1/models?supported_parameters=tools,stream");
      expect(tools.body).toMatchObject({ total_count: 1, data: [{ id: "openai/gpt-4o-mini" }] });
      const none = await harness.request("GET", "/api/v1/models?supported_parameters=tools,response_format");
      expect(none.body).toMatchObject({ total_count: 0, data: [] });
    });

    it("accepts OpenRouter's categories and refuses a malformed filter with a 400 naming it", async () => {
      const category = await harness.request("GET", "/api/v1/models?category=programming");
      expect(category.body.total_count).toBe(2);
      const unknown = await harness.request("GET", "/api/v1/models?category=cooking");
      expect(unknown.status).toBe(400);
      expect(unknown.body).toMatchObject({
        error: { message: expect.stringMatching(/^category: expected one of programming/) },
      });
      const malformed = await harness.request("GET", "/api/v1/models?supported_parameters=Tools;drop");
      expect(malformed.status).toBe(400);
      expect(malformed.body).toMatchObject({
        error: { message: expect.stringMatching(/^supported_parameters: /) },
      });
      const repeated = await harness.request("GET", "/api/v1/models?category=legal&category=health");
      expect(repeated.status).toBe(400);
    });
  });

  describe("GET /api/v1/models/count", () => {
    it("counts the models by output modality, text by default, as OpenRouter's models.count() reads it", async () => {
      const text = await harness.request("GET", "/api/v1/models/count");
      expect(text.status).toBe(200);
      expect(text.body).toEqual({ data: { count: 2 } });
      const all = await harness.request("GET", "/api/v1/models/count?output_modalities=all");
      expect(all.body).toEqual({ data: { count: 2 } });
      const embeddings = await harness.request("GET", "/api/v1/models/count?output_modalities=embeddings");
      expect(embeddings.body).toEqual({ data: { count: 0 } });
      const either = await harness.request("GET", "/api/v1/models/count?output_modalities=image,text");
      expect(either.body).toEqual({ data: { count: 2 } });
    });

    it("refuses an unknown modality with a 400 naming the parameter", async () => {
      const response = await harness.request("GET", "/api/v1/models/count?output_modalities=smell");
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({
        error: {
          message: expect.stringMatching(/^output_modalities: /),
          metadata: { field: "output_modalities" },
        },
      });
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
          // Cache prices as the model list has them (issue 30).
          pricing: {
            prompt: 0.00000088,
            completion: 0.00000088,
            request: 0.000001,
            image: 0,
            input_cache_read: 0.000000075,
            input_cache_write: 0,
            internal_reasoning: 0,
          },
          quantization: "fp8",
          is_zdr: true,
          supported_parameters: ["max_tokens", "stream", "response_format"],
          input_modalities: ["text"],
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
          pricing: {
            prompt: 0,
            completion: 0,
            request: 0,
            image: 0,
            input_cache_read: 0,
            input_cache_write: 0,
            internal_reasoning: 0,
          },
          quantization: null,
          is_zdr: false,
          supported_parameters: ["max_tokens"],
          input_modalities: ["text"],
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
      expect(response.body.error).toMatchObject({
        type: "not_found_error",
        metadata: { reason: "model_not_found" },
      });
    });

    it("requires a key, as every non-public route does", async () => {
      const response = await harness.request("GET", "/api/v1/models/openai/gpt-4o-mini/endpoints");
      expect(response.status).toBe(401);
    });
  });
});
