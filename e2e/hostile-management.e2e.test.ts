import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type HostileGateway, startHostileGateway } from "./hostile/gateway.js";
import { hostileLookupSuite, hostileRouteSuite } from "./hostile/route-suite.js";
import { send } from "./hostile/wire.js";

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
