import type { AddressInfo } from "node:net";
import { PrincipalResolver } from "@gw/auth";
import { errorHandler, jsonBody, notFoundHandler } from "@gw/http";
import { silentLogger } from "@gw/logger";
import { describeWith } from "@gw/testing";
import express from "express";
import { afterAll, beforeAll, expect, it } from "vitest";
import { authenticateKey } from "../identity/keys/authenticate.js";
import { createApiKey } from "../identity/operator.js";
import { operatorGate } from "../identity/operators/gate.js";
import { createOperatorToken, revokeOperatorToken } from "../identity/operators/tokens.js";
import { fixtureCatalog } from "../test/catalog-fixture.js";
import { type KeysHarness, startKeysHarness } from "../test/harness.js";
import { ADMIN_CATALOG_PATH, mountCatalogAdmin } from "./admin-routes.js";
import { readCatalog, readCatalogVersion } from "./read.js";

// The admin router on an app built like the keys app's (body layer, error handler), over the harness's
// database, whose keys app seeded the fixture catalogue.

/** The fields these tests read, across the routes' answers (each answer has some of them). */
interface Answer {
  error: {
    message: string;
    metadata: { problems: string[]; reason?: string; high_prices?: unknown[] };
  };
  data: Array<{
    id: string;
    aliases: string[];
    model_limit: { requests: number; interval_seconds: number } | null;
    endpoints: Array<{ pricing: Record<string, string> }>;
  }>;
  disabled: unknown[];
  version: string;
  version_before: string | null;
  applied: boolean;
  diff: unknown[];
  models: number;
  high_prices: unknown[];
}

describeWith(["postgres"], "catalogue admin routes", () => {
  let harness: KeysHarness;
  let server: ReturnType<express.Express["listen"]>;
  let base: string;
  let operator: string;
  let management: string;
  let apiKey: string;

  beforeAll(async () => {
    harness = await startKeysHarness();
    const db = harness.database.db;
    const resolver = new PrincipalResolver((request) => authenticateKey(db, request.keyHash), {
      maxTtlMs: 0,
      negativeTtlMs: 0,
      maxEntries: 1,
    });
    const app = express();
    app.use(jsonBody());
    mountCatalogAdmin(app, { db, operators: operatorGate({ db, resolver }), seed: fixtureCatalog() });
    app.use(notFoundHandler());
    app.use(errorHandler(silentLogger()));
    server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}${ADMIN_CATALOG_PATH}`;
    operator = (await createOperatorToken(db, "ops")).token;
    const account = await harness.account();
    management = account.managementKey;
    apiKey = (await createApiKey(harness.database, { accountId: account.accountId, name: "k" })).key;
  });

  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await harness?.close();
  });

  async function call(method: string, path: string, key: string | undefined, body?: unknown) {
    const headers: Record<string, string> = {};
    if (key) headers.authorization = `Bearer ${key}`;
    if (body !== undefined) headers["content-type"] = "application/json";
    const response = await fetch(`${base}${path}`, {
      method,
      headers,
      body: body === undefined ? null : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Answer };
  }

  const price = { model: "openai/gpt-4o-mini", provider: "openai", pricing: { prompt: "0.0000002" } };

  it("refuses a tenant's management key and API key with 403, writing nothing", async () => {
    const version = await readCatalogVersion(harness.database.db);
    for (const key of [management, apiKey]) {
      const listed = await call("GET", "/", key);
      expect(listed.status).toBe(403);
      expect(listed.body.error.message).toContain("operator token");
      expect((await call("POST", "/prices", key, price)).status).toBe(403);
    }
    expect(await readCatalogVersion(harness.database.db)).toBe(version);
  });

  it("answers 401 without a credential, with an unknown key, and with an unknown or revoked operator token", async () => {
    expect((await call("GET", "/", undefined)).status).toBe(401);
    expect((await call("GET", "/", "lr_mgmt_" + "0".repeat(48))).status).toBe(401);
    expect((await call("GET", "/", "gw_op_" + "0".repeat(48))).status).toBe(401);
    const revoked = await createOperatorToken(harness.database.db, "leaving");
    expect((await call("GET", "/", revoked.token)).status).toBe(200);
    expect(await revokeOperatorToken(harness.database.db, "leaving")).toBe(1);
    expect((await call("GET", "/", revoked.token)).status).toBe(401);
  });

  it("lists the catalogue and sets a price, recorded in the history under the token's name", async () => {
    const listed = await call("GET", "/", operator);
    expect(listed.status).toBe(200);
    const mini = listed.body.data.find((model) => model.id === "openai/gpt-4o-mini");
    expect(mini?.endpoints[0]?.pricing).toMatchObject({ prompt: "0.00000015", completion: "0.0000006" });

    const set = await call("POST", "/prices", operator, price);
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ applied: true, version_before: listed.body.version });
    expect(set.body.diff).toEqual([
      { target: "openai/gpt-4o-mini@openai", field: "pricing.promptPico", old: "150000", new: "200000" },
    ]);
    const served = (await readCatalog(harness.database.db)).content.models.find(
      (m) => m.id === "openai/gpt-4o-mini",
    );
    expect(served?.endpoints[0]?.pricing?.promptPico).toBe(200_000n);
    const changes = await call("GET", "/changes", operator);
    expect(changes.body.data[0]).toMatchObject({ actor: "operator:ops", action: "set-price" });
  });

  it("imports as a dry run by default and writes with apply", async () => {
    const content = JSON.stringify({
      "gpt-4o-mini": { litellm_provider: "openai", mode: "chat", input_cost_per_token: 3e-7 },
    });
    const dry = await call("POST", "/import", operator, { format: "litellm", content });
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({ applied: false, models: 1 });
    expect(dry.body.diff).toHaveLength(1);
    const applied = await call("POST", "/import", operator, { format: "litellm", content, apply: true });
    expect(applied.body).toMatchObject({ applied: true, version: dry.body.version });
  });

  it("refuses bad input with 400 in the route's error shape, every problem listed", async () => {
    const version = await readCatalogVersion(harness.database.db);
    const content = JSON.stringify({
      a: { litellm_provider: "openai", mode: "chat", input_cost_per_token: -1 },
      b: { litellm_provider: "nowhere", mode: "chat", input_cost_per_token: 1e-6 },
    });
    const refused = await call("POST", "/import", operator, { format: "litellm", content, apply: true });
    expect(refused.status).toBe(400);
    expect(refused.body.error.metadata.problems).toEqual([
      "a.input_cost_per_token: negative price -1",
      "b: unknown provider: nowhere",
    ]);
    const cases: Array<[string, unknown]> = [
      ["/import", { format: "csv", content: "x" }],
      ["/prices", { model: "openai/gpt-4o-mini", provider: "openai", pricing: { prompt: "-1" } }],
      ["/prices", { model: "openai/gpt-4o-mini", provider: "openai", pricing: {} }],
      ["/prices", { model: "openai/gpt-4o-mini", provider: "nowhere", pricing: { prompt: "1" } }],
      ["/disable", { model: "openai/none" }],
      ["/aliases", { alias: "openai/x", model: "openai/none" }],
      ["/aliases", { alias: "openai/gpt-4o-mini", model: "meta-llama/llama-3.3-70b-instruct" }],
    ];
    for (const [path, body] of cases) {
      const answer = await call("POST", path, operator, body);
      expect(answer.status, `${path} ${JSON.stringify(body)}`).toBe(400);
      expect(answer.body.error.message, path).toBeTypeOf("string");
    }
    expect(await readCatalogVersion(harness.database.db)).toBe(version);
  });

  it("refuses a price nested 20,000 deep and a file of more than 10,000 entries with 400 naming the bound (issue 33)", async () => {
    const version = await readCatalogVersion(harness.database.db);
    const deepPrice = `{"gpt-4o-mini":{"litellm_provider":"openai","mode":"chat","input_cost_per_token":${"[".repeat(20_000)}${"]".repeat(20_000)}}}`;
    const deep = await call("POST", "/import", operator, { format: "litellm", content: deepPrice });
    expect(deep.status).toBe(400);
    expect(deep.body.error.metadata.problems).toEqual([
      "content nests arrays or objects deeper than 64 levels",
    ]);
    const many = (count: number) =>
      JSON.stringify(
        Object.fromEntries(
          Array.from({ length: count }, (_, index) => [
            `model-${index}`,
            { litellm_provider: "openai", mode: "chat", input_cost_per_token: 1e-6 },
          ]),
        ),
      );
    const started = Date.now();
    const over = await call("POST", "/import", operator, { format: "litellm", content: many(30_000) });
    expect(over.status).toBe(400);
    expect(over.body.error.metadata.problems).toEqual([
      "30000 entries: at most 10,000 per import (split the file, e.g. by provider)",
    ]);
    const openrouter = JSON.stringify({
      data: Array.from({ length: 10_001 }, (_, index) => ({ id: `m/${index}` })),
    });
    const overOpenRouter = await call("POST", "/import", operator, {
      format: "openrouter",
      content: openrouter,
    });
    expect(overOpenRouter.status).toBe(400);
    expect(overOpenRouter.body.error.metadata.problems[0]).toMatch(/^10001 entries: at most 10,000/);
    console.info(`refusing a 30,000-entry and a 10,001-entry import took ${Date.now() - started} ms`);
    expect(await readCatalogVersion(harness.database.db)).toBe(version);
  });

  it("sets and removes a model-specific request limit, operator only, refusing what limits nothing (issue 30)", async () => {
    const model = "openai/gpt-4o-mini";
    const limitOf = async () =>
      (await call("GET", "/", operator)).body.data.find((m) => m.id === model)?.model_limit;
    const body = { model, limit: { requests: 2, interval_seconds: 60 } };
    for (const key of [management, apiKey])
      expect((await call("POST", "/limits", key, body)).status).toBe(403);
    expect((await call("POST", "/limits", undefined, body)).status).toBe(401);
    expect(await limitOf()).toBeNull();

    const refused: Array<[unknown, RegExp]> = [
      [{ model, limit: { requests: 0, interval_seconds: 60 } }, /limit\.requests/],
      [{ model, limit: { requests: 2 } }, /limit\.interval_seconds/],
      [{ model, limit: { requests: 2, interval_seconds: 86_401 } }, /limit\.interval_seconds/],
      [{ model, limit: { requests: 1.5, interval_seconds: 60 } }, /limit\.requests/],
      [{ model }, /limit/],
    ];
    for (const [bad, names] of refused) {
      const answer = await call("POST", "/limits", operator, bad);
      expect(answer.status, JSON.stringify(bad)).toBe(400);
      expect(answer.body.error.message).toMatch(names);
    }
    const unknown = await call("POST", "/limits", operator, { ...body, model: "nobody/nothing" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.metadata.problems).toEqual(["unknown model: nobody/nothing"]);

    const set = await call("POST", "/limits", operator, body);
    expect(set.status).toBe(200);
    expect(set.body.applied).toBe(true);
    expect(await limitOf()).toEqual({ requests: 2, interval_seconds: 60 });
    const served = (await readCatalog(harness.database.db)).content.models.find((m) => m.id === model);
    expect(served?.modelLimit).toEqual({ requests: 2, intervalSeconds: 60 });
    expect((await call("POST", "/limits", operator, { model, limit: null })).status).toBe(200);
    expect(await limitOf()).toBeNull();
  });

  it("refuses a price above $1,000 per 1M tokens or $10 per request unless confirm_high_prices, naming it and the field (issue 34)", async () => {
    const db = harness.database.db;
    const version = await readCatalogVersion(db);
    // $10^12 per 1M tokens = $10^6 per token: the import.
    const content = JSON.stringify({
      "gpt-4o-mini": { litellm_provider: "openai", mode: "chat", input_cost_per_token: 1e6 },
    });
    const high = { target: "openai/gpt-4o-mini@openai", price: "prompt", usd: "1000000" };
    const dry = await call("POST", "/import", operator, { format: "litellm", content });
    expect(dry.status).toBe(200);
    expect(dry.body.high_prices).toEqual([high]);
    const refused = await call("POST", "/import", operator, { format: "litellm", content, apply: true });
    expect(refused.status).toBe(400);
    expect(refused.body.error.metadata.reason).toBe("price_confirmation_required");
    expect(refused.body.error.metadata.high_prices).toEqual([high]);
    expect(refused.body.error.metadata.problems).toEqual([
      "openai/gpt-4o-mini@openai: prompt $1000000 per token is above $0.001 per token ($1,000 per 1M tokens)",
    ]);
    expect(refused.body.error.message).toContain("confirm_high_prices: true");
    const perRequest = { ...price, pricing: { request: "10.5" } };
    const refusedPrice = await call("POST", "/prices", operator, perRequest);
    expect(refusedPrice.status).toBe(400);
    expect(refusedPrice.body.error.metadata.problems).toEqual([
      "openai/gpt-4o-mini@openai: request $10.5 per request is above $10 per request",
    ]);
    // At the thresholds themselves: no question asked.
    const atLimit = { ...price, pricing: { completion: "0.001", request: "10" } };
    const allowed = await call("POST", "/prices", operator, atLimit);
    expect(allowed.status).toBe(200);
    expect(allowed.body.high_prices).toEqual([]);
    expect(await readCatalogVersion(db)).not.toBe(version);

    const confirmed = await call("POST", "/import", operator, {
      format: "litellm",
      content,
      apply: true,
      confirm_high_prices: true,
    });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ applied: true, high_prices: [high] });
    const served = (await readCatalog(db)).content.models.find((m) => m.id === "openai/gpt-4o-mini");
    expect(served?.endpoints[0]?.pricing?.promptPico).toBe(1_000_000n * 10n ** 12n);
    // A price already served is not asked about again when another field changes.
    const other = await call("POST", "/prices", operator, { ...price, pricing: { completion: "0.0000007" } });
    expect(other.status).toBe(200);
    // Put back what the other tests read.
    await call("POST", "/prices", operator, { ...price, confirm_high_prices: true });
  });

  it("disables and enables an endpoint, and adds an alias", async () => {
    const model = "meta-llama/llama-3.3-70b-instruct";
    const off = await call("POST", "/disable", operator, { model, provider: "together" });
    expect(off.status).toBe(200);
    const listed = await call("GET", "/", operator);
    expect(listed.body.disabled).toEqual([{ model, provider: "together" }]);
    expect(listed.body.data.find((m) => m.id === model)?.endpoints).toHaveLength(1);
    expect((await call("POST", "/enable", operator, { model, provider: "together" })).status).toBe(200);
    const alias = await call("POST", "/aliases", operator, {
      alias: "openai/gpt-4o-mini-latest",
      model: "openai/gpt-4o-mini",
    });
    expect(alias.status).toBe(200);
    const after = await call("GET", "/", operator);
    expect(after.body.data.find((m) => m.id === "openai/gpt-4o-mini")?.aliases).toEqual([
      "openai/gpt-4o-mini-latest",
    ]);
  });

  it("sets an endpoint's zero data retention, training and quantization, audited, operator only (issue 31)", async () => {
    const target = { model: "openai/gpt-4o-mini", provider: "openai" };
    const policy = { ...target, is_zdr: true, may_train_on_data: true, quantization: "fp8" };
    const version = await readCatalogVersion(harness.database.db);
    for (const key of [management, apiKey])
      expect((await call("POST", "/data-policy", key, policy)).status).toBe(403);
    expect((await call("POST", "/data-policy", undefined, policy)).status).toBe(401);
    expect(await readCatalogVersion(harness.database.db)).toBe(version);

    const set = await call("POST", "/data-policy", operator, policy);
    expect(set.status).toBe(200);
    expect(set.body.diff).toEqual([
      { target: "openai/gpt-4o-mini@openai", field: "quantization", old: "", new: "fp8" },
      { target: "openai/gpt-4o-mini@openai", field: "isZdr", old: false, new: true },
      { target: "openai/gpt-4o-mini@openai", field: "mayTrainOnData", old: false, new: true },
    ]);
    const served = async () =>
      (await readCatalog(harness.database.db)).content.models
        .find((m) => m.id === target.model)
        ?.endpoints.find((e) => e.providerId === target.provider);
    expect(await served()).toMatchObject({ isZdr: true, mayTrainOnData: true, quantization: "fp8" });
    const changes = await call("GET", "/changes", operator);
    expect(changes.body.data[0]).toMatchObject({ actor: "operator:ops", action: "data-policy" });

    // One field at a time; the others keep the operator's earlier value. null quantization = unknown.
    const cleared = await call("POST", "/data-policy", operator, { ...target, quantization: null });
    expect(cleared.body.diff).toEqual([
      { target: "openai/gpt-4o-mini@openai", field: "quantization", old: "fp8", new: "" },
    ]);
    expect(await served()).toMatchObject({ isZdr: true, mayTrainOnData: true, quantization: "" });
    const off = await call("POST", "/data-policy", operator, {
      ...target,
      is_zdr: false,
      may_train_on_data: false,
    });
    expect(off.status).toBe(200);
    expect(await served()).toMatchObject({ isZdr: false, mayTrainOnData: false });
  });

  it("refuses a bad data policy with 400, writing nothing", async () => {
    const version = await readCatalogVersion(harness.database.db);
    const target = { model: "openai/gpt-4o-mini", provider: "openai" };
    const cases: unknown[] = [
      target,
      { ...target, is_zdr: "yes" },
      { ...target, quantization: "fp5" },
      { ...target, may_train_on_data: 1 },
      { model: "openai/gpt-4o-mini", provider: "together", is_zdr: true },
      { model: "openai/none", provider: "openai", is_zdr: true },
      { model: "openai/gpt-4o-mini", is_zdr: true },
      [],
    ];
    for (const body of cases) {
      const answer = await call("POST", "/data-policy", operator, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error.message, JSON.stringify(body)).toBeTypeOf("string");
    }
    const unknown = await call("POST", "/data-policy", operator, {
      model: "openai/none",
      provider: "openai",
      is_zdr: true,
    });
    expect(unknown.body.error.metadata.problems).toEqual(["unknown endpoint: openai/none at openai"]);
    expect(await readCatalogVersion(harness.database.db)).toBe(version);
  });

  it("sets an endpoint's audio price and input modalities, in the admin and the published listings, operator only (issue 32)", async () => {
    const db = harness.database.db;
    const target = { model: "openai/gpt-4o-mini", provider: "openai" };
    const media = { ...target, pricing: { audio: "0.00001" }, input_modalities: ["text", "audio", "image"] };
    const version = await readCatalogVersion(db);
    for (const key of [management, apiKey])
      expect((await call("POST", "/prices", key, media)).status).toBe(403);
    expect((await call("POST", "/prices", undefined, media)).status).toBe(401);
    expect(await readCatalogVersion(db)).toBe(version);

    const set = await call("POST", "/prices", operator, media);
    expect(set.status).toBe(200);
    expect(set.body.diff).toEqual(
      expect.arrayContaining([
        { target: "openai/gpt-4o-mini@openai", field: "pricing.audioPico", old: "0", new: "10000000" },
        expect.objectContaining({ target: "openai/gpt-4o-mini@openai", field: "inputModalities" }),
      ]),
    );
    // Stored in the catalogue's own order (text first), whatever order the operator sent.
    const endpointOf = (body: Answer) =>
      body.data.find((model) => model.id === target.model)?.endpoints[0] as
        | { pricing: Record<string, string>; input_modalities: string[] }
        | undefined;
    const admin = endpointOf((await call("GET", "/", operator)).body);
    expect(admin?.pricing.audio).toBe("0.00001");
    expect(admin?.input_modalities).toEqual(["text", "image", "audio"]);
    const published = await harness.request("GET", "/api/v1/models/openai/gpt-4o-mini/endpoints", {
      key: apiKey,
    });
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    const endpoint = (published.body as { data: Array<Record<string, unknown>> }).data[0];
    expect(endpoint).toMatchObject({
      pricing: expect.objectContaining({ audio: 0.00001 }),
      input_modalities: ["text", "image", "audio"],
    });
    const models = (await harness.request("GET", "/api/v1/models")).body as {
      data: Array<{
        id: string;
        pricing: Record<string, string>;
        architecture: { input_modalities: string[] };
      }>;
    };
    const listed = models.data.find((model) => model.id === target.model);
    expect(listed?.pricing.audio).toBe("0.00001");
    expect(listed?.architecture.input_modalities).toEqual(["text", "image", "audio"]);

    // Modalities alone change an endpoint's list, and its prices stay.
    const textOnly = await call("POST", "/prices", operator, { ...target, input_modalities: ["text"] });
    expect(textOnly.status).toBe(200);
    const after = endpointOf((await call("GET", "/", operator)).body);
    expect(after?.input_modalities).toEqual(["text"]);
    expect(after?.pricing.audio).toBe("0.00001");
    // Put back what the fixture had (images and PDFs), for the other tests.
    await call("POST", "/prices", operator, { ...target, input_modalities: ["text", "image", "file"] });
  });

  it("refuses a bad audio price or input modalities with 400 in the route's error shape, writing nothing (issue 32)", async () => {
    const db = harness.database.db;
    const version = await readCatalogVersion(db);
    const target = { model: "openai/gpt-4o-mini", provider: "openai" };
    const cases: Array<[unknown, string, string]> = [
      [{ ...target, pricing: { audio: "-1" } }, "pricing.audio", "a non-negative decimal"],
      [{ ...target, pricing: { audio: 0.00001 } }, "pricing.audio", ""],
      [{ ...target, input_modalities: ["image"] }, "input_modalities", "must include text"],
      [{ ...target, input_modalities: ["text", "video"] }, "input_modalities[1]", ""],
      [{ ...target, input_modalities: ["text", "text"] }, "input_modalities", "must not repeat"],
      [{ ...target, input_modalities: [] }, "input_modalities", ""],
      [{ ...target, input_modalities: "text" }, "input_modalities", ""],
      [{ ...target, pricing: {} }, "pricing", "name at least one price"],
    ];
    for (const [body, field, message] of cases) {
      const answer = await call("POST", "/prices", operator, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      const error = answer.body.error as Answer["error"] & { metadata: { field?: string } };
      expect(error.metadata.field, JSON.stringify(body)).toBe(field);
      expect(error.message, JSON.stringify(body)).toContain(`${field}: ${message}`);
    }
    // Modalities describe an endpoint; they do not add one without its prices.
    const unserved = await call("POST", "/prices", operator, {
      model: "openai/gpt-4o-mini",
      provider: "together",
      input_modalities: ["text", "audio"],
    });
    expect(unserved.status).toBe(400);
    expect(unserved.body.error.metadata.problems).toEqual([
      "unknown endpoint: openai/gpt-4o-mini at together (name its prices to add it)",
    ]);
    // An audio price above $1,000 per 1M tokens is asked about like the others.
    const high = await call("POST", "/prices", operator, { ...target, pricing: { audio: "0.002" } });
    expect(high.status).toBe(400);
    expect(high.body.error.metadata.problems).toEqual([
      "openai/gpt-4o-mini@openai: audio $0.002 per token is above $0.001 per token ($1,000 per 1M tokens)",
    ]);
    expect(await readCatalogVersion(db)).toBe(version);
  });
});
