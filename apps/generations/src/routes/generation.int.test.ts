import { newGenerationId } from "@gw/events";
import { catalogueCost } from "@gw/events/testing";
import { describeWith } from "@gw/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, type GenerationsHarness, startGenerationsHarness } from "../test/harness.js";
import { publishUsage, usageEvent } from "../test/usage-events.js";

describeWith(["postgres"], "generation lookup", () => {
  let harness: GenerationsHarness;
  let ownerKey: string;

  beforeAll(async () => {
    harness = await startGenerationsHarness();
    ownerKey = harness.keys.issue("acct_owner");
  });

  afterAll(async () => {
    await harness?.close();
  });

  async function ingested(id: string): Promise<void> {
    await eventually(async () => {
      const row = await harness.database.db
        .selectFrom("generations")
        .select("id")
        .where("id", "=", id)
        .executeTakeFirst();
      return row !== undefined;
    });
  }

  // The spec's Generation table, field by field, with the JSON type each must have.
  const SPEC_FIELDS: Array<[string, "string" | "number" | "boolean"]> = [
    ["id", "string"],
    ["model", "string"],
    ["provider", "string"],
    ["created_at", "string"],
    ["latency_ms", "number"],
    ["usage.prompt_tokens", "number"],
    ["usage.completion_tokens", "number"],
    ["usage.total_tokens", "number"],
    ["usage.cost", "number"],
    ["usage.is_byok", "boolean"],
    ["usage.prompt_tokens_details.cached_tokens", "number"],
    ["usage.prompt_tokens_details.cache_write_tokens", "number"],
    ["usage.completion_tokens_details.reasoning_tokens", "number"],
    ["usage.cost_details.upstream_inference_cost", "number"],
    ["usage.cost_details.upstream_inference_prompt_cost", "number"],
    ["usage.cost_details.upstream_inference_completions_cost", "number"],
  ];

  function at(value: unknown, path: string): unknown {
    return path
      .split(".")
      .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], value);
  }

  describe("GET /api/v1/generation", () => {
    it("answers with every field of the spec and the decisions' extras", async () => {
      // A BYOK request at the default fee: nothing charged, the provider's price reported upstream.
      const usage = usageEvent({
        accountId: "acct_owner",
        estimated: true,
        isByok: true,
        // 3 cached reads saved 0.15 µ$ each, 2 cache writes cost 0.075 µ$ more each (the edge's figure).
        cost: { ...catalogueCost(1_650_000n, 12_000_000n), cacheDiscountPico: 300_000n },
        attribution: {
          httpReferer: "https://app.example/page",
          appTitle: "My App",
          userAgent: "OpenAI/JS 6.1.0",
        },
        externalUser: "user-42",
        attempts: [
          { provider: "together", model: "openai/gpt-4o-mini", status: 0, latencyMs: 40, isByok: false },
          { provider: "openai", model: "openai/gpt-4o-mini", status: 200, latencyMs: 800, isByok: true },
        ],
      });
      publishUsage(harness.bus, harness.topics.usage, usage);
      await ingested(usage.generationId);

      const response = await harness.get(`/api/v1/generation?id=${usage.generationId}`, ownerKey);
      expect(response.status).toBe(200);
      const data = response.body.data;
      for (const [path, type] of SPEC_FIELDS) expect(typeof at(data, path), path).toBe(type);
      expect(data).toEqual({
        id: usage.generationId,
        model: "openai/gpt-4o-mini",
        provider: "openai",
        created_at: usage.createdAt?.toISOString(),
        latency_ms: 850,
        usage: {
          prompt_tokens: 11,
          completion_tokens: 20,
          total_tokens: 31,
          cost: 0,
          is_byok: true,
          estimated: true,
          prompt_tokens_details: { cached_tokens: 3, cache_write_tokens: 2 },
          completion_tokens_details: { reasoning_tokens: 5 },
          cost_details: {
            upstream_inference_cost: 0.00001365,
            upstream_inference_prompt_cost: 0.00000165,
            upstream_inference_completions_cost: 0.000012,
          },
        },
        api_type: "chat",
        streamed: true,
        cancelled: false,
        finish_reason: "stop",
        native_finish_reason: "stop",
        upstream_id: "chatcmpl-123",
        generation_time_ms: 610,
        key_hash: usage.keyHash,
        attempts: [
          { provider: "together", model: "openai/gpt-4o-mini", status: 0, latency_ms: 40, is_byok: false },
          { provider: "openai", model: "openai/gpt-4o-mini", status: 200, latency_ms: 800, is_byok: true },
        ],
        error: null,
        // OpenRouter's flat fields.
        tokens_prompt: 11,
        tokens_completion: 20,
        native_tokens_prompt: 11,
        native_tokens_completion: 20,
        native_tokens_reasoning: 5,
        native_tokens_cached: 3,
        total_cost: 0,
        upstream_inference_cost: 0.00001365,
        is_byok: true,
        latency: 850,
        generation_time: 610,
        cache_discount: 0.0000003,
        provider_name: "openai",
        app_id: expect.any(Number),
        origin: "https://app.example",
        http_referer: "https://app.example/page",
        app_title: "My App",
        // The rest of OpenRouter's GenerationResponseData: what the gateway knows, null for what it lacks.
        data_region: "global",
        external_user: "user-42",
        user_agent: "OpenAI/JS 6.1.0",
        workspace_id: "acct_owner",
        provider_responses: [
          {
            provider_name: "together",
            model_permaslug: "openai/gpt-4o-mini",
            status: null,
            latency: 40,
            is_byok: false,
          },
          {
            provider_name: "openai",
            model_permaslug: "openai/gpt-4o-mini",
            status: 200,
            latency: 800,
            is_byok: true,
          },
        ],
        moderation_latency: null,
        native_tokens_completion_images: null,
        num_fetches: null,
        num_input_audio_prompt: null,
        num_media_completion: null,
        num_media_prompt: null,
        num_search_results: null,
        preset_id: null,
        router: null,
        service_tier: null,
        web_search_engine: null,
      });
    });

    it("keeps a failed generation's error as the client was told it", async () => {
      const usage = usageEvent({
        accountId: "acct_owner",
        finishReason: "error",
        error: {
          status: 502,
          reason: "upstream_error",
          message: "no provider could serve the request: the last one answered HTTP 500",
        },
      });
      publishUsage(harness.bus, harness.topics.usage, usage);
      await ingested(usage.generationId);
      const response = await harness.get(`/api/v1/generation?id=${usage.generationId}`, ownerKey);
      expect(response.body.data).toMatchObject({
        finish_reason: "error",
        error: {
          code: 502,
          reason: "upstream_error",
          message: "no provider could serve the request: the last one answered HTTP 500",
        },
        external_user: null,
        user_agent: null,
      });
    });

    it("shows the web plugin's search: its engine and the searches or results billed (issue 32)", async () => {
      for (const [engine, count] of [
        ["native", 2],
        ["exa", 5],
      ] as const) {
        const usage = usageEvent({ accountId: "acct_owner", webSearch: { engine, count } });
        publishUsage(harness.bus, harness.topics.usage, usage);
        await ingested(usage.generationId);
        const response = await harness.get(`/api/v1/generation?id=${usage.generationId}`, ownerKey);
        expect(response.body.data).toMatchObject({ web_search_engine: engine, num_search_results: count });
      }
      const plain = usageEvent({ accountId: "acct_owner" });
      publishUsage(harness.bus, harness.topics.usage, plain);
      await ingested(plain.generationId);
      const response = await harness.get(`/api/v1/generation?id=${plain.generationId}`, ownerKey);
      expect(response.body.data).toMatchObject({ web_search_engine: null, num_search_results: null });
    });

    it("renders fields the provider did not report as null", async () => {
      const usage = usageEvent({
        accountId: "acct_owner",
        finishReason: "",
        nativeFinishReason: "",
        upstreamId: "",
      });
      publishUsage(harness.bus, harness.topics.usage, usage);
      await ingested(usage.generationId);
      const response = await harness.get(`/api/v1/generation?id=${usage.generationId}`, ownerKey);
      expect(response.body.data).toMatchObject({
        finish_reason: null,
        native_finish_reason: null,
        upstream_id: null,
      });
    });

    it("keeps cache_discount null when the provider's cache was neither read nor written", async () => {
      const usage = usageEvent({
        accountId: "acct_owner",
        usage: {
          promptTokens: 11,
          completionTokens: 20,
          cachedTokens: 0,
          cacheWriteTokens: 0,
          reasoningTokens: 5,
        },
      });
      publishUsage(harness.bus, harness.topics.usage, usage);
      await ingested(usage.generationId);
      const response = await harness.get(`/api/v1/generation?id=${usage.generationId}`, ownerKey);
      expect(response.body.data).toMatchObject({ cache_discount: null });
    });

    it("records a cache write that cost more than input as a negative cache_discount", async () => {
      const usage = usageEvent({
        accountId: "acct_owner",
        cost: { ...catalogueCost(1_650_000n, 12_000_000n), cacheDiscountPico: -750_000n },
      });
      publishUsage(harness.bus, harness.topics.usage, usage);
      await ingested(usage.generationId);
      const response = await harness.get(`/api/v1/generation?id=${usage.generationId}`, ownerKey);
      expect(response.body.data).toMatchObject({ cache_discount: -0.00000075 });
    });

    it("lets any key of the owning account read it, management keys included", async () => {
      const usage = usageEvent({ accountId: "acct_owner" });
      publishUsage(harness.bus, harness.topics.usage, usage);
      await ingested(usage.generationId);
      const management = harness.keys.issue("acct_owner", "management");
      const response = await harness.get(`/api/v1/generation?id=${usage.generationId}`, management);
      expect(response.status).toBe(200);
    });

    it("requires id", async () => {
      const response = await harness.get("/api/v1/generation", ownerKey);
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ type: "invalid_request_error" });
      expect((response.body.error as { message: string }).message).toMatch(/^id:/);
    });

    it("answers an unknown id with a plain 404", async () => {
      const old = newGenerationId(Date.now() - 10 * 60_000);
      for (const id of [old, "gen-nonsense", "chatcmpl-xyz"]) {
        const response = await harness.get(`/api/v1/generation?id=${id}`, ownerKey);
        expect(response.status, id).toBe(404);
        expect(response.body.error).toMatchObject({
          type: "not_found_error",
          metadata: { reason: "generation_not_found" },
        });
        expect(response.headers.get("retry-after")).toBeNull();
      }
    });

    it("answers a recent id not yet ingested with 404 generation_pending and Retry-After: 1, then with the record", async () => {
      const usage = usageEvent({ accountId: "acct_owner" });
      const pending = await harness.get(`/api/v1/generation?id=${usage.generationId}`, ownerKey);
      expect(pending.status).toBe(404);
      expect(pending.headers.get("retry-after")).toBe("1");
      expect(pending.body.error).toMatchObject({
        type: "not_found_error",
        metadata: { reason: "generation_pending" },
      });

      publishUsage(harness.bus, harness.topics.usage, usage);
      await ingested(usage.generationId);
      const ready = await harness.get(`/api/v1/generation?id=${usage.generationId}`, ownerKey);
      expect(ready.status).toBe(200);
    });
  });
});
