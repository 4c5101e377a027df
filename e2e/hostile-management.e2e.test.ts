import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Json } from "./hostile/bodies.js";
import { type HostileGateway, startHostileGateway } from "./hostile/gateway.js";
import { hostileLookupSuite, hostileRouteSuite } from "./hostile/route-suite.js";
import { expectHandled, Tally, type Target } from "./hostile/suite.js";
import { send } from "./hostile/wire.js";
import { eventually, runCli } from "./processes.js";

// Property-based hostile input (fast-check) against every management and lookup route family of the
// embedded default, run as a process (issue 16): keys CRUD, BYOK, credits, key info, generation
// lookup, models, model endpoints, wallet sign-in. For every generated case: no 5xx, the OpenAI-style
// error envelope, and a refusal leaves the account's keys, provider credentials and ledger exactly as
// they were. HOSTILE_CASES sets the cases per property (test-only; default in hostile/suite.ts).

vi.setConfig({ testTimeout: 120_000 });

/** The body timeout given to the embedded default: its control-plane apps read management bodies. */
const BODY_TIMEOUT_MS = 1_500;

let gateway: HostileGateway;
const gw = () => gateway;
/** A key and a BYOK credential of the account's own, for the update and lookup routes to aim at. */
let targetKeyHash = "";
let targetCredentialId = "";

beforeAll(async () => {
  gateway = await startHostileGateway({ env: { BODY_TIMEOUT_MS: String(BODY_TIMEOUT_MS) } });
  const management = { authorization: `Bearer ${gateway.managementKey}`, "content-type": "application/json" };
  const key = await send(gateway.url, {
    method: "POST",
    path: "/api/v1/keys",
    headers: management,
    body: JSON.stringify({ name: "hostile target" }),
  });
  expect(key.status).toBe(201);
  targetKeyHash = (key.json as { data: { hash: string } }).data.hash;
  const credential = await send(gateway.url, {
    method: "POST",
    path: "/api/v1/byok",
    headers: management,
    body: JSON.stringify({ provider: "openai", key: "sk-hostile-target-0123456789" }),
  });
  expect(credential.status).toBe(201);
  targetCredentialId = (credential.json as { data: { id: string } }).data.id;
}, 120_000);

afterAll(async () => {
  await gateway?.stop();
});

const management = (): [string, string] => ["authorization", `Bearer ${gateway.managementKey}`];
const apiKey = (): [string, string] => ["authorization", `Bearer ${gateway.apiKey}`];

async function read(path: string): Promise<unknown> {
  const answer = await send(gateway.url, {
    method: "GET",
    path,
    headers: { authorization: `Bearer ${gateway.managementKey}` },
  });
  expect(answer.status, `${path}: ${answer.text}`).toBe(200);
  return answer.json;
}

/** Everything a management call could change: the account's keys, its provider credentials, its ledger. */
async function stored(): Promise<unknown> {
  return {
    keys: await read("/api/v1/keys?limit=500&include_disabled=true"),
    byok: await read("/api/v1/byok?limit=500"),
    credits: await read("/api/v1/credits"),
  };
}

describe("hostile input: keys CRUD", () => {
  hostileRouteSuite(gw, {
    name: "create key",
    method: "POST",
    path: () => "/api/v1/keys",
    shape: "openai",
    auth: management,
    state: stored,
    template: {
      name: "made by the suite",
      limit: 5,
      limit_reset: "monthly",
      expires_at: "2099-01-01T00:00:00Z",
      allowed_providers: ["openai"],
      allowed_models: ["openai/gpt-4o-mini"],
      include_byok_in_limit: true,
    },
    bodyTimeoutMs: BODY_TIMEOUT_MS,
  });
  hostileRouteSuite(gw, {
    name: "update key",
    method: "PATCH",
    path: () => `/api/v1/keys/${targetKeyHash}`,
    shape: "openai",
    auth: management,
    state: stored,
    template: { name: "renamed", disabled: false, limit: 3, limit_reset: "daily", allowed_models: null },
  });
  for (const method of ["GET", "PATCH", "DELETE"] as const) {
    hostileLookupSuite(gw, {
      name: "key by hash",
      method,
      target: (segment) => `/api/v1/keys/${segment}`,
      shape: "openai",
      auth: management,
      state: stored,
      ...(method === "PATCH" ? { body: { name: "x" } } : {}),
    });
  }
  hostileLookupSuite(gw, {
    name: "key list query",
    method: "GET",
    target: (segment) => `/api/v1/keys?limit=${segment}&offset=${segment}&include_disabled=${segment}`,
    shape: "openai",
    auth: management,
    state: stored,
  });
});

describe("hostile input: BYOK", () => {
  hostileRouteSuite(gw, {
    name: "create BYOK credential",
    method: "POST",
    path: () => "/api/v1/byok",
    shape: "openai",
    auth: management,
    state: stored,
    // Not openai: the account has its one openai key already (the target), and a second is a 400.
    template: { provider: "groq", key: "gsk_suite-0123456789abcdef", name: "suite", disabled: false },
    bodyTimeoutMs: BODY_TIMEOUT_MS,
  });
  hostileRouteSuite(gw, {
    name: "update BYOK credential",
    method: "PATCH",
    path: () => `/api/v1/byok/${targetCredentialId}`,
    shape: "openai",
    auth: management,
    state: stored,
    template: { name: "renamed", key: "sk-suite-replaced-0123456789", disabled: false, position: 1 },
  });
  for (const method of ["GET", "PATCH", "DELETE"] as const) {
    hostileLookupSuite(gw, {
      name: "BYOK credential by id",
      method,
      target: (segment) => `/api/v1/byok/${segment}`,
      shape: "openai",
      auth: management,
      state: stored,
      ...(method === "PATCH" ? { body: { name: "x" } } : {}),
    });
  }
  hostileLookupSuite(gw, {
    name: "BYOK list query",
    method: "GET",
    target: (segment) => `/api/v1/byok?limit=${segment}&offset=${segment}&provider=${segment}`,
    shape: "openai",
    auth: management,
    state: stored,
  });
});

describe("hostile input: credits, key info, generation lookup", () => {
  hostileRouteSuite(gw, {
    name: "credits",
    method: "GET",
    path: () => "/api/v1/credits",
    shape: "openai",
    auth: management,
    state: stored,
  });
  hostileLookupSuite(gw, {
    name: "credits query",
    method: "GET",
    target: (segment) => `/api/v1/credits?${segment}=${segment}`,
    shape: "openai",
    auth: management,
    state: stored,
  });
  hostileRouteSuite(gw, {
    name: "key info",
    method: "GET",
    path: () => "/v1/key",
    shape: "openai",
    auth: apiKey,
    state: stored,
  });
  hostileLookupSuite(gw, {
    name: "key info credential",
    method: "GET",
    target: () => "/v1/key",
    shape: "openai",
    auth: apiKey,
    state: stored,
  });
  hostileLookupSuite(gw, {
    name: "generation lookup",
    method: "GET",
    target: (segment) => `/api/v1/generation?id=${segment}`,
    shape: "openai",
    auth: apiKey,
    state: stored,
  });
});

describe("hostile input: models and endpoints", () => {
  hostileRouteSuite(gw, {
    name: "models",
    method: "GET",
    path: () => "/api/v1/models",
    shape: "openai",
    auth: apiKey,
    state: stored,
  });
  hostileLookupSuite(gw, {
    name: "models query",
    method: "GET",
    target: (segment) => `/api/v1/models?category=${segment}&supported_parameters=${segment}`,
    shape: "openai",
    auth: apiKey,
    state: stored,
  });
  hostileLookupSuite(gw, {
    name: "OpenAI-style model list and model",
    method: "GET",
    target: (segment) => `/v1/models/${segment}`,
    shape: "openai",
    auth: apiKey,
    state: stored,
  });
  hostileLookupSuite(gw, {
    name: "model endpoints",
    method: "GET",
    target: (segment) => `/api/v1/models/${segment}/${segment}/endpoints`,
    shape: "openai",
    auth: apiKey,
    state: stored,
  });
});

describe("hostile input: wallet sign-in", () => {
  hostileRouteSuite(gw, {
    name: "wallet sign-in",
    method: "POST",
    path: () => "/v1/x402/auth",
    shape: "openai",
    auth: () => ["sign-in-with-x", Buffer.from('{"message":"x","signature":"0x00"}').toString("base64")],
    state: stored,
    template: { message: "127.0.0.1 wants you to sign in with your Ethereum account:", signature: "0x00" },
    bodyTimeoutMs: BODY_TIMEOUT_MS,
  });
  hostileLookupSuite(gw, {
    name: "wallet sign-in header",
    method: "POST",
    target: () => "/v1/x402/auth",
    shape: "openai",
    auth: () => ["sign-in-with-x", "%"],
    state: stored,
  });
  it("an unsigned header of generated JSON is a 401 naming the reason", async () => {
    const answer = await send(gateway.url, {
      method: "POST",
      path: "/v1/x402/auth",
      headers: { "sign-in-with-x": Buffer.from('{"__proto__":{"admin":true}}').toString("base64") },
    });
    expect(answer.status).toBe(401);
  });
});

// Issue 33: values zod accepted and PostgreSQL refused (500s), the console's static statuses (500s),
// and the operator catalogue import (a deep price was a 500, a 30,000-model dry run stopped the process
// for up to 0.84 s). Each case below was a 5xx before its fix.
describe("hostile input: what the database, the static server and the import refuse (issue 33)", () => {
  const tally = new Tally("issue 33 cases");
  const target: Target = { shape: "openai", tally, state: stored };
  let operatorToken = "";
  beforeAll(async () => {
    const created = await runCli(
      "apps/standalone/dist/cli/main.js",
      ["operator-token", "create", "--name", "hostile", "--json"],
      { GW_DATA_DIR: gateway.dataDir, DATABASE_URL: "" },
    );
    operatorToken = (JSON.parse(created) as { token: string }).token;
  }, 60_000);
  afterAll(() => {
    console.log(tally.summary());
  });

  const cursorAt = (at: string) => Buffer.from(JSON.stringify([at, "x"])).toString("base64url");
  const get = (path: string, key: string) =>
    expectHandled(target, path, () =>
      send(gateway.url, { method: "GET", path, headers: { authorization: `Bearer ${key}` } }),
    );

  const badCursors = [
    ["year 0", "0000-01-01T00:00:00.000000Z"],
    ["30 February", "2026-02-30T00:00:00.000000Z"],
  ] as const;
  for (const [what, at] of badCursors) {
    it(`a cursor dated ${what} is a 400 on /api/v1/generations`, async () => {
      const answer = await get(`/api/v1/generations?cursor=${cursorAt(at)}`, gateway.managementKey);
      expect(answer.status).toBe(400);
    });
    it(`a cursor dated ${what} is a 400 on /api/v1/admin/accounts`, async () => {
      const answer = await get(`/api/v1/admin/accounts?cursor=${cursorAt(at)}`, operatorToken);
      expect(answer.status).toBe(400);
      expect((await get("/api/v1/admin/accounts?limit=1", operatorToken)).status).toBe(200);
    });
  }

  it("a from date in year 0 (or in year 0 once in UTC) is a 400 on /api/v1/generations", async () => {
    for (const date of ["0000-01-01", "0000-12-31T00:00:00Z", "0001-01-01T00:00:00+14:00"]) {
      const answer = await get(`/api/v1/generations?from=${encodeURIComponent(date)}`, gateway.managementKey);
      expect(answer.status, date).toBe(400);
    }
  });

  it("an app_id of 2^31 or more is a 400 on /api/v1/activity; int4's maximum is served", async () => {
    for (const id of ["2147483648", "4294967296", "9999999999"]) {
      const answer = await get(`/api/v1/activity?app_id=${id}`, gateway.managementKey);
      expect(answer.status, id).toBe(400);
      expect(answer.text, id).toContain("app_id");
    }
    expect((await get("/api/v1/activity?app_id=2147483647", gateway.managementKey)).status).toBe(200);
  });

  it("a date of year 0 or 30 February is a 400 on /api/v1/activity", async () => {
    for (const date of ["0000-01-01", "2026-02-30"]) {
      const answer = await get(`/api/v1/activity?date=${date}`, gateway.managementKey);
      expect(answer.status, date).toBe(400);
      expect(answer.text, date).toContain("date");
    }
  });

  it("If-Match, If-Unmodified-Since and an unsatisfiable Range on /console/ are the static server's 412 and 416", async () => {
    const cases: Array<[Record<string, string>, number]> = [
      [{ "if-match": '"not-this-one"' }, 412],
      [{ "if-unmodified-since": "Thu, 01 Jan 1970 00:00:00 GMT" }, 412],
      [{ range: "bytes=99999999-" }, 416],
    ];
    for (const path of ["/console/", "/console/keys"]) {
      for (const [headers, status] of cases) {
        const answer = await send(gateway.url, { method: "GET", path, headers });
        tally.record("console", answer.status);
        expect(answer.status, `${path} ${JSON.stringify(headers)}`).toBe(status);
      }
    }
  });

  it("the catalogue import refuses a price nested 20,000 deep and more than 10,000 models with 400, quickly", async () => {
    const importing = (content: string) =>
      expectHandled(target, "catalogue import", () =>
        send(gateway.url, {
          method: "POST",
          path: "/api/v1/admin/catalog/import",
          headers: { authorization: `Bearer ${operatorToken}`, "content-type": "application/json" },
          body: JSON.stringify({ format: "litellm", content }),
        }),
      );
    const deep = `{"gpt-4o-mini":{"litellm_provider":"openai","mode":"chat","input_cost_per_token":${"[".repeat(20_000)}${"]".repeat(20_000)}}}`;
    const refusedDeep = await importing(deep);
    expect(refusedDeep.status).toBe(400);
    expect(refusedDeep.text).toContain("deeper than 64");
    const models = Object.fromEntries(
      Array.from({ length: 30_000 }, (_, index) => [
        `model-${index}`,
        { litellm_provider: "openai", mode: "chat", input_cost_per_token: 1e-6 },
      ]),
    );
    const started = Date.now();
    const refusedMany = await importing(JSON.stringify(models));
    expect(refusedMany.status).toBe(400);
    expect(refusedMany.text).toContain("at most 10,000 per import");
    console.log(`[hostile] a 30,000-model import refused in ${Date.now() - started} ms`);
  });
});

// Issue 33 (known list): a management key could be neither revoked nor rotated. Through the API
// (GET/DELETE /api/v1/management-keys, POST …/rotate): generated hashes change nothing, a rotated
// key's old secret and a revoked key are refused by the gateway's next call, the new secret is served.
describe("hostile input: management keys, revoked and rotated through the API (issue 33)", () => {
  for (const [method, suffix, what] of [
    ["DELETE", "", "revoke"],
    ["POST", "/rotate", "rotate"],
  ] as const) {
    hostileLookupSuite(gw, {
      name: `management key by hash (${what})`,
      method,
      target: (segment) => `/api/v1/management-keys/${segment}${suffix}`,
      shape: "openai",
      auth: management,
      state: async () => ({ stored: await stored(), management: await read("/api/v1/management-keys") }),
    });
  }

  const as = (key: string, method: "GET" | "POST" | "DELETE", path: string) =>
    send(gateway.url, { method, path, headers: { authorization: `Bearer ${key}` } });
  /** The secret is refused everywhere a management key is taken: keys itself, and billing's cache. */
  const expectRefused = async (key: string, label: string) => {
    expect((await as(key, "GET", "/api/v1/management-keys")).status, label).toBe(401);
    await eventually(
      async () => ((await as(key, "GET", "/api/v1/credits")).status === 401 ? true : undefined),
      5_000,
    );
  };

  it("a rotated key's old secret is refused and its new one served; a revoked key is refused", async () => {
    const created = await runCli(
      "apps/standalone/dist/cli/main.js",
      ["keys", "create", "--account", gateway.accountId, "--name", "second", "--management", "--json"],
      { GW_DATA_DIR: gateway.dataDir, DATABASE_URL: "" },
    );
    const second = JSON.parse(created) as { key: string; hash: string };
    expect((await as(second.key, "GET", "/api/v1/credits")).status).toBe(200);

    const rotated = await as(gateway.managementKey, "POST", `/api/v1/management-keys/${second.hash}/rotate`);
    expect(rotated.status, rotated.text).toBe(201);
    const renewed = rotated.json as { key: string; data: { hash: string } };
    await expectRefused(second.key, "the rotated key's old secret");
    expect((await as(renewed.key, "GET", "/api/v1/credits")).status).toBe(200);

    const revoked = await as(gateway.managementKey, "DELETE", `/api/v1/management-keys/${renewed.data.hash}`);
    expect(revoked.status, revoked.text).toBe(200);
    await expectRefused(renewed.key, "the revoked key");
    expect((await as(gateway.managementKey, "GET", "/api/v1/credits")).status).toBe(200);
  });
});

// Issue 33: the routes added in this round (management keys; the operator's data policy and model
// limits) and the operator catalogue's other writes, under the same generated hostile input. A refusal
// must leave the account and the catalogue's change log as they were.
describe("hostile input: management keys and the operator catalogue's writes", () => {
  let operatorToken = "";
  beforeAll(async () => {
    const created = await runCli(
      "apps/standalone/dist/cli/main.js",
      ["operator-token", "create", "--name", "hostile-writes", "--json"],
      { GW_DATA_DIR: gateway.dataDir, DATABASE_URL: "" },
    );
    operatorToken = (JSON.parse(created) as { token: string }).token;
  }, 60_000);
  const operator = (): [string, string] => ["authorization", `Bearer ${operatorToken}`];

  /** The account's state plus the catalogue's change log (every applied operator write is an entry). */
  async function storedWithCatalog(): Promise<unknown> {
    const changes = await send(gateway.url, {
      method: "GET",
      path: "/api/v1/admin/catalog/changes?limit=500",
      headers: { authorization: `Bearer ${operatorToken}` },
    });
    expect(changes.status, changes.text).toBe(200);
    return { ...((await stored()) as object), changes: changes.json };
  }

  hostileRouteSuite(gw, {
    name: "management keys list",
    method: "GET",
    path: () => "/api/v1/management-keys",
    shape: "openai",
    auth: management,
    state: stored,
  });
  // Revoke and rotate by hash: the block above.
  // A model the rest of this file never calls: a generated body that is valid changes it, harmlessly.
  const model = "google/gemini-2.5-flash";
  const writes: Array<[string, { [key: string]: Json }]> = [
    [
      "data-policy",
      { model, provider: "google", is_zdr: true, may_train_on_data: false, quantization: null },
    ],
    ["limits", { model, limit: { requests: 1_000, interval_seconds: 60 } }],
    ["prices", { model, provider: "google", pricing: { prompt: "0.0000003" }, context_length: 1_048_576 }],
    ["disable", { model, provider: "google" }],
    ["enable", { model, provider: "google" }],
    ["aliases", { alias: "hostile/alias", model }],
  ];
  for (const [route, template] of writes) {
    hostileRouteSuite(gw, {
      name: `operator catalogue ${route}`,
      method: "POST",
      path: () => `/api/v1/admin/catalog/${route}`,
      shape: "openai",
      auth: operator,
      state: storedWithCatalog,
      template,
      bodyTimeoutMs: BODY_TIMEOUT_MS,
    });
  }
});
