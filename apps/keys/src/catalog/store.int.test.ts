import { describeWith, type MigratedTestDatabase, migratedTestDatabase } from "@gw/testing";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { migrations, SCHEMA } from "../db/index.js";
import type { KeysTables } from "../db/schema.js";
import { importCatalog, listCatalog } from "./admin.js";
import { bundledCatalog, type CatalogContent } from "./content.js";
import { setAlias, setDisabled, setPrice } from "./operations.js";
import { readCatalog, readCatalogVersion } from "./read.js";
import { CatalogChangeError, changeCatalog, readCatalogChanges, refreshCatalog } from "./store.js";

const seed = bundledCatalog();

const litellm = (entries: Record<string, unknown>) => JSON.stringify(entries);
const miniAt = (prompt: number, completion: number) => ({
  "gpt-4o-mini": {
    litellm_provider: "openai",
    mode: "chat",
    input_cost_per_token: prompt,
    output_cost_per_token: completion,
    max_input_tokens: 128_000,
    max_output_tokens: 16_384,
  },
});

describeWith(["postgres"], "catalogue operator layer (Postgres)", () => {
  let test: MigratedTestDatabase<KeysTables>;
  const db = () => test.database.db;
  const served = async (id: string) =>
    (await readCatalog(db())).content.models.find((model) => model.id === id);

  beforeAll(async () => {
    test = await migratedTestDatabase<KeysTables>(SCHEMA, migrations);
  });

  beforeEach(async () => {
    for (const table of [
      "catalog_model_overrides",
      "catalog_endpoint_overrides",
      "catalog_aliases",
      "catalog_changes",
    ] as const) {
      await db().deleteFrom(table).execute();
    }
    await refreshCatalog(db(), seed);
  });

  afterAll(async () => {
    await test?.drop();
  });

  it("answers an import's diff without writing anything on a dry run", async () => {
    const version = await readCatalogVersion(db());
    const result = await importCatalog(db(), seed, {
      format: "litellm",
      text: litellm(miniAt(2e-7, 8e-7)),
      apply: false,
      actor: "test",
    });
    expect(result.applied).toBe(false);
    expect(result.diff).toEqual([
      { target: "openai/gpt-4o-mini@openai", field: "pricing.promptPico", old: "150000", new: "200000" },
      { target: "openai/gpt-4o-mini@openai", field: "pricing.completionPico", old: "600000", new: "800000" },
    ]);
    expect(await readCatalogVersion(db())).toBe(version);
    expect(await readCatalogChanges(db())).toEqual([]);
    expect((await served("openai/gpt-4o-mini"))?.endpoints[0]?.pricing?.promptPico).toBe(150_000n);
  });

  it("applies an import: new version, new price served, one history row naming who and old -> new", async () => {
    const version = await readCatalogVersion(db());
    const result = await importCatalog(db(), seed, {
      format: "litellm",
      text: litellm(miniAt(2e-7, 8e-7)),
      apply: true,
      actor: "operator:ops",
    });
    expect(result.applied).toBe(true);
    expect(result.version).not.toBe(version);
    expect(await readCatalogVersion(db())).toBe(result.version);
    expect((await served("openai/gpt-4o-mini"))?.endpoints[0]?.pricing?.promptPico).toBe(200_000n);
    const [change] = await readCatalogChanges(db());
    expect(change).toMatchObject({
      actor: "operator:ops",
      action: "import:litellm",
      versionBefore: version,
      versionAfter: result.version,
    });
    expect(change?.diff).toContainEqual({
      target: "openai/gpt-4o-mini@openai",
      field: "pricing.promptPico",
      old: "150000",
      new: "200000",
    });
    // Importing the same file again changes nothing and records nothing.
    const again = await importCatalog(db(), seed, {
      format: "litellm",
      text: litellm(miniAt(2e-7, 8e-7)),
      apply: true,
      actor: "operator:ops",
    });
    expect(again).toMatchObject({ applied: false, diff: [], version: result.version });
    expect(await readCatalogChanges(db())).toHaveLength(1);
  });

  it("keeps operator changes across a restart's re-seed, while untouched fields follow a new seed", async () => {
    await changeCatalog(db(), seed, {
      actor: "test",
      action: "set-price",
      dryRun: false,
      edit: setPrice({ modelId: "openai/gpt-4o-mini", providerId: "openai", pricing: { promptPico: 1n } }),
    });
    const version = await readCatalogVersion(db());
    expect(await refreshCatalog(db(), seed)).toEqual({ version, changed: false });
    // A new release reprices completion and adds a model: both arrive, the operator's prompt price stays.
    const release: CatalogContent = structuredClone({ providers: seed.providers, models: seed.models });
    const mini = release.models.find((model) => model.id === "openai/gpt-4o-mini");
    const endpoint = mini?.endpoints[0];
    if (!mini || !endpoint?.pricing) throw new Error("the seed lists gpt-4o-mini");
    endpoint.pricing.completionPico = 700_000n;
    release.models.push({ ...structuredClone(mini), id: "openai/gpt-4o-mini-next", aliases: [] });
    const reseeded = await refreshCatalog(db(), release);
    expect(reseeded.changed).toBe(true);
    expect((await served("openai/gpt-4o-mini"))?.endpoints[0]?.pricing).toMatchObject({
      promptPico: 1n,
      completionPico: 700_000n,
    });
    expect(await served("openai/gpt-4o-mini-next")).toBeDefined();
  });

  it("refuses a bad file whole, listing every problem, and writes nothing", async () => {
    const version = await readCatalogVersion(db());
    const text = `{
      "gpt-4o-mini": {"litellm_provider": "openai", "mode": "chat", "input_cost_per_token": -1e-7},
      "gpt-9-mini": {"litellm_provider": "openai", "mode": "chat", "input_cost_per_token": "cheap"},
      "gpt-4o": {"litellm_provider": "openai", "mode": "chat", "input_cost_per_token": 1e-6},
      "gpt-4o": {"litellm_provider": "openai", "mode": "chat", "input_cost_per_token": 2e-6},
      "mystery-1": {"litellm_provider": "nowhere-ai", "mode": "chat", "input_cost_per_token": 1e-6},
      "groq/llama-3.3-70b-instruct:free": {"litellm_provider": "groq", "mode": "chat", "input_cost_per_token": 1e-6},
      "gpt-9-test": {"litellm_provider": "openai", "mode": "chat", "input_cost_per_token": 2e-6}
    }`;
    const refused = importCatalog(db(), seed, { format: "litellm", text, apply: true, actor: "test" });
    await expect(refused).rejects.toBeInstanceOf(CatalogChangeError);
    const problems = await refused.catch((error: CatalogChangeError) => error.problems);
    expect(problems).toEqual([
      "duplicate id: gpt-4o",
      "gpt-4o-mini.input_cost_per_token: negative price -1e-7",
      'gpt-9-mini.input_cost_per_token: not a number: "cheap"',
      "mystery-1: unknown provider: nowhere-ai",
      "groq/llama-3.3-70b-instruct:free: a :free model must cost nothing",
    ]);
    expect(await readCatalogVersion(db())).toBe(version);
    expect(await served("openai/gpt-9-test")).toBeUndefined();
    expect(await readCatalogChanges(db())).toEqual([]);
  });

  it("refuses what is not the format, for both formats", async () => {
    const run = (format: string, text: string) =>
      importCatalog(db(), seed, { format, text, apply: true, actor: "test" }).catch(
        (error: CatalogChangeError) => error.problems,
      );
    expect(await run("litellm", "[1,2]")).toEqual([
      "not LiteLLM's model_prices_and_context_window.json: expected an object of model entries with litellm_provider",
    ]);
    expect(await run("openrouter", '{"models": []}')).toEqual([
      'not OpenRouter\'s GET /api/v1/models answer: expected { "data": [models] }',
    ]);
    expect(await run("litellm", "{not json")).toEqual([expect.stringMatching(/^not JSON: /)]);
    expect(await run("csv", "a,b")).toEqual(["unknown format csv: litellm or openrouter"]);
  });

  it("imports OpenRouter's model list as endpoints at the openrouter provider, refusing bad entries", async () => {
    const good = {
      data: [
        {
          id: "qwen/qwen3-max",
          name: "Qwen: Qwen3 Max",
          context_length: 131_072,
          pricing: { prompt: "0.00000013", completion: "0.0000006", request: "0", image: "0" },
          top_provider: { context_length: 131_072, max_completion_tokens: 8_192 },
          supported_parameters: ["max_tokens", "temperature", "tools"],
        },
      ],
    };
    const applied = await importCatalog(db(), seed, {
      format: "openrouter",
      text: JSON.stringify(good),
      apply: true,
      actor: "test",
    });
    expect(applied.applied).toBe(true);
    expect((await served("qwen/qwen3-max"))?.endpoints).toEqual([
      expect.objectContaining({
        providerId: "openrouter",
        upstreamModel: "qwen/qwen3-max",
        contextLength: 131_072,
        maxCompletionTokens: 8_192,
        pricing: expect.objectContaining({ promptPico: 130_000n, completionPico: 600_000n }),
        supportedParameters: ["max_tokens", "temperature", "tools"],
      }),
    ]);
    const bad = {
      data: [
        { id: "a/b:free", pricing: { prompt: "0.000001", completion: "0" } },
        { id: "a/c", pricing: { prompt: "-0.1", completion: "x" } },
        { id: "a/c", pricing: { prompt: "0", completion: "0" } },
        { name: "no id" },
      ],
    };
    const problems = await importCatalog(db(), seed, {
      format: "openrouter",
      text: JSON.stringify(bad),
      apply: true,
      actor: "test",
    }).catch((error: CatalogChangeError) => error.problems);
    expect(problems).toEqual([
      "duplicate id: a/c",
      'a/c.pricing.prompt: negative price "-0.1"',
      'a/c.pricing.completion: not a number: "x"',
      "data[3]: not a model (no string id)",
      "a/b:free: a :free model must cost nothing",
    ]);
  });

  it("imports the open-weight hosts' and the clouds' LiteLLM entries; clouds unknown here are named", async () => {
    // As in LiteLLM's file of 2026-07-24, Cerebras repriced; Bedrock's Claude Sonnet 4 entry.
    const text = JSON.stringify({
      "cerebras/llama-3.3-70b": {
        litellm_provider: "cerebras",
        mode: "chat",
        input_cost_per_token: 9e-7,
        output_cost_per_token: 0.0000012,
        max_input_tokens: 128_000,
        max_output_tokens: 128_000,
      },
      "anthropic.claude-sonnet-4-20250514-v1:0": {
        litellm_provider: "bedrock_converse",
        mode: "chat",
        input_cost_per_token: 0.000003,
        output_cost_per_token: 0.000015,
        cache_read_input_token_cost: 3e-7,
        cache_creation_input_token_cost: 0.00000375,
        max_input_tokens: 1_000_000,
        max_output_tokens: 64_000,
      },
    });
    // The bundled seed has the clouds since issue 31; an operator's catalogue may not: take them out.
    const clouds = ["amazon-bedrock", "google-vertex", "azure"];
    const noClouds = {
      ...seed,
      version: undefined,
      providers: seed.providers.filter((provider) => !clouds.includes(provider.id)),
      models: seed.models.map((model) => ({
        ...model,
        endpoints: model.endpoints.filter((endpoint) => !clouds.includes(endpoint.providerId)),
      })),
    };
    await refreshCatalog(db(), noClouds);
    const refused = await importCatalog(db(), noClouds, {
      format: "litellm",
      text,
      apply: true,
      actor: "test",
    }).catch((error: CatalogChangeError) => error.problems);
    expect(refused).toEqual(["anthropic.claude-sonnet-4-20250514-v1:0: unknown provider: amazon-bedrock"]);

    const skipping = await importCatalog(db(), noClouds, {
      format: "litellm",
      text,
      apply: true,
      actor: "test",
      skipUnknownProviders: true,
    });
    expect(skipping.skipped).toEqual([
      "anthropic.claude-sonnet-4-20250514-v1:0: provider amazon-bedrock is not in the catalogue",
    ]);
    const llama = await served("meta-llama/llama-3.3-70b-instruct");
    const cerebras = llama?.endpoints.find((endpoint) => endpoint.providerId === "cerebras");
    expect(cerebras?.pricing?.promptPico).toBe(900_000n);

    // The seam the cloud branches fill: with amazon-bedrock a provider, Claude gains its Bedrock endpoint.
    const bedrock = { id: "amazon-bedrock", name: "Amazon Bedrock", apiFormat: "bedrock", isDemo: false };
    const withClouds = { ...noClouds, providers: [...noClouds.providers, bedrock] };
    await refreshCatalog(db(), withClouds);
    await importCatalog(db(), withClouds, { format: "litellm", text, apply: true, actor: "test" });
    const sonnet = await served("anthropic/claude-sonnet-4");
    expect(sonnet?.endpoints.find((endpoint) => endpoint.providerId === "amazon-bedrock")).toMatchObject({
      upstreamModel: "anthropic.claude-sonnet-4-20250514-v1:0",
      contextLength: 1_000_000,
      pricing: expect.objectContaining({ cacheReadPico: 300_000n, cacheWritePico: 3_750_000n }),
    });
    await refreshCatalog(db(), seed);
  });

  it("disables and enables a model or an endpoint, and points aliases", async () => {
    const apply = (edit: Parameters<typeof changeCatalog>[2]["edit"]) =>
      changeCatalog(db(), seed, { actor: "test", action: "edit", dryRun: false, edit });
    await apply(setDisabled({ modelId: "openai/gpt-4o", disabled: true }));
    expect(await served("openai/gpt-4o")).toBeUndefined();
    expect((await listCatalog(db())).disabled).toEqual([{ modelId: "openai/gpt-4o", providerId: null }]);
    await apply(setDisabled({ modelId: "openai/gpt-4o", disabled: false }));
    expect(await served("openai/gpt-4o")).toBeDefined();

    await apply(
      setDisabled({ modelId: "meta-llama/llama-3.3-70b-instruct", providerId: "groq", disabled: true }),
    );
    const llama = await served("meta-llama/llama-3.3-70b-instruct");
    expect(llama?.endpoints.map((endpoint) => endpoint.providerId)).toEqual([
      "together",
      "fireworks",
      "deepinfra",
      "cerebras",
      "amazon-bedrock",
    ]);

    await apply(setAlias("openai/gpt-4o-mini-operator", "openai/gpt-4o-mini"));
    expect((await served("openai/gpt-4o-mini"))?.aliases).toContain("openai/gpt-4o-mini-operator");

    await expect(apply(setAlias("openai/x", "openai/nope"))).rejects.toThrow("unknown model: openai/nope");
    await expect(apply(setAlias("openai/gpt-4o", "openai/gpt-4o-mini"))).rejects.toThrow("is a model id");
    await expect(apply(setDisabled({ modelId: "openai/nope", disabled: true }))).rejects.toThrow(
      "unknown model: openai/nope",
    );
    const history = await readCatalogChanges(db());
    expect(history).toHaveLength(4);
    expect(history.every((change) => change.actor === "test")).toBe(true);
  });
});
