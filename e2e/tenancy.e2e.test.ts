import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { hashSecret } from "@gw/auth";
import { freePort } from "@gw/db";
import { createTestDatabase, describeWith, serviceUrl, type TestDatabase } from "@gw/testing";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { createSiweMessage, generateSiweNonce } from "viem/siwe";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type AppProcess, eventually, runCli, startProcess, waitForHttp } from "./processes.js";
import { type RouteName, registeredRoutes } from "./tenancy/registered-routes.js";

// The tenancy matrix: every management and lookup route the gateway serves, called with another
// tenant's credentials (tenant B's management key and API key, and a wallet's JWT) on tenant A's key,
// BYOK credential, generation and batch. Each must refuse (404 for another tenant's object, 403 for the
// wrong kind of credential, per api-decisions.md) or answer with the caller's own data only, never a
// trace of A; afterwards nothing of A has changed. The real apps (the embedded default as its own
// process on PostgreSQL and Redis), no mocks. The route list is read from the apps' registrations: a
// route added without a row here fails the first test.

interface Tenant {
  accountId: string;
  management: string;
  apiKey: string;
}

interface Answer {
  status: number;
  text: string;
}

type Caller = "management" | "inference" | "wallet";

/**
 * What a probe may use: the gateway, tenant A's objects, the other tenant's three credentials and the
 * objects B holds itself (what B's own lists must show: a list answering `[]` to everyone fails).
 */
interface World {
  call(method: string, path: string, secret: string, body?: unknown): Promise<Answer>;
  a: Tenant & {
    keyHash: string;
    managementHash: string;
    byokId: string;
    generationId: string;
    batchId: string;
  };
  others: Record<Caller, string>;
  b: { generationId: string; batchId: string };
}

type Probe = (world: World) => Promise<void>;

/** Markers only tenant A's data contains: none may appear in any answer to another tenant. */
const A_KEY_NAME = `tenant-a-key-${randomBytes(4).toString("hex")}`;
const A_BYOK_NAME = `tenant-a-byok-${randomBytes(4).toString("hex")}`;
const A_BYOK_SECRET = `sk-tenant-a-${randomBytes(12).toString("hex")}`;
/** B's own objects, which B's lists must show. */
const B_KEY_NAME = `tenant-b-key-${randomBytes(4).toString("hex")}`;
const B_BYOK_NAME = `tenant-b-byok-${randomBytes(4).toString("hex")}`;

/** Every caller of `callers` gets `status` on the route, and the answer carries nothing of A. */
function refusedFor(
  callers: readonly Caller[],
  status: number,
  request: (world: World) => { method: string; path: string; body?: unknown },
): Probe {
  return async (world) => {
    const { method, path, body } = request(world);
    for (const caller of callers) {
      const answer = await world.call(method, path, world.others[caller], body);
      expect({ caller, status: answer.status }, answer.text).toEqual({ caller, status });
      expectNothingOfA(world, answer, path);
    }
  };
}

function expectNothingOfA(world: World, answer: Answer, requestedPath: string): void {
  const markers = [
    A_KEY_NAME,
    A_BYOK_NAME,
    A_BYOK_SECRET,
    world.a.accountId,
    world.a.apiKey,
    world.a.management,
  ];
  // Ids the caller itself sent may be echoed ("… not found"); ids it did not send may not appear.
  const ids = [
    world.a.keyHash,
    world.a.managementHash,
    world.a.byokId,
    world.a.generationId,
    world.a.batchId,
  ];
  for (const id of ids) {
    if (!decodeURIComponent(requestedPath).includes(id)) markers.push(id);
  }
  for (const marker of markers) expect(answer.text, `answer leaks ${marker}`).not.toContain(marker);
}

/** What the caller's own answer must show of its own data, given the parsed body. */
type Own = (body: unknown, caller: Caller, world: World) => void;

/**
 * The caller gets its own answer (2xx) in which nothing of A appears and its own data does (`own`): an
 * answer that shows nobody anything (`[]`, `{}`) is not a tenancy boundary, it is a broken route.
 */
function ownOnly(
  callers: readonly Caller[],
  request: (world: World) => { method: string; path: string; body?: unknown },
  own: Own,
): Probe {
  return async (world) => {
    const { method, path, body } = request(world);
    for (const caller of callers) {
      const answer = await world.call(method, path, world.others[caller], body);
      expect(answer.status, `${caller}: ${answer.text}`).toBeGreaterThanOrEqual(200);
      expect(answer.status, `${caller}: ${answer.text}`).toBeLessThan(300);
      expectNothingOfA(world, answer, path);
      own(JSON.parse(answer.text) as unknown, caller, world);
    }
  };
}

/** The `data` list of an answer, each item's `field`. */
const listed = (body: unknown, field: string): unknown[] =>
  ((body as { data?: Record<string, unknown>[] }).data ?? []).map((item) => item[field]);
/** A list that shows the caller the item whose `field` is `value`. */
const lists =
  (field: string, value: (world: World) => string): Own =>
  (body, caller, world) =>
    expect(listed(body, field), `${caller}'s own list`).toContain(value(world));
/** A non-empty list (what every caller has: the catalogue, its own traffic). */
const nonEmpty: Own = (body, caller) =>
  expect((body as { data?: unknown[] }).data?.length ?? 0, `${caller}'s own list`).toBeGreaterThan(0);
/** The caller's own key: its kind is the caller's. */
const ownKey: Own = (body, caller) =>
  expect((body as { data: { is_management_key: unknown } }).data.is_management_key).toBe(
    caller === "management",
  );

const both =
  (...probes: Probe[]): Probe =>
  async (world) => {
    for (const probe of probes) await probe(world);
  };

const ALL: Caller[] = ["management", "inference", "wallet"];
const NOT_MANAGEMENT: Caller[] = ["inference", "wallet"];
const API_CALLERS: Caller[] = ["inference", "wallet"];

/** Routes that address no tenant's stored data, and why. */
const EXEMPT: Record<RouteName, string> = {
  "GET /healthz": "liveness, no tenant data",
  "GET /readyz": "readiness, no tenant data",
  "GET /openapi.json": "the API's description, the same for everyone",
  "POST /v1/x402/auth":
    "wallet sign-in: takes a signed proof, no credential, names only the signer's own account",
  "GET /api/v1/models": "the public catalogue, the same for every tenant",
  "GET /api/v1/models/count": "the public catalogue's size, the same for every tenant",
  "GET /api/v1/models/:author/:slug/endpoints":
    "the catalogue's endpoints of a model, the same for every tenant",
  "GET /v1/models":
    "the catalogue as the caller's own key may use it (key allow-lists: models.security.test.ts)",
  "GET /v1beta/models": "the catalogue as the caller's own key may use it, in Gemini's shape",
  "GET /v1/models/*id": "one catalogue model, through the caller's own key",
  "GET /v1beta/models/*id": "one catalogue model, through the caller's own key, in Gemini's shape",
  "POST /v1/chat/completions":
    "inference: served and billed to the caller's own account, addresses no stored object",
  "POST /api/v1/chat/completions": "inference on the caller's own account",
  "POST /v1/completions": "inference on the caller's own account",
  "POST /api/v1/completions": "inference on the caller's own account",
  "POST /v1/responses":
    "inference on the caller's own account (stateless: store and previous_response_id are refused)",
  "POST /api/v1/responses": "inference on the caller's own account (stateless)",
  "POST /v1/messages": "inference on the caller's own account",
  "POST /v1/messages/count_tokens": "counts the caller's own input, stores nothing",
  "POST /v1/embeddings": "inference on the caller's own account",
  "POST /api/v1/embeddings": "inference on the caller's own account",
  "POST /v1beta/models/*rest": "inference (generateContent, embedContent) on the caller's own account",
  "POST /v1/models/*rest": "inference (generateContent) on the caller's own account",
  "POST /v1beta/:author/*rest":
    "inference (generateContent, streamGenerateContent, countTokens by author/slug id) on the caller's own account",
  "POST /{provider}/*path":
    "the provider proxy: inference endpoints only (allow-list), stored provider objects refused (proxy.security tests)",
  "GET /{provider}/*path": "the provider proxy: inference endpoints only, stored provider objects refused",
};

/** Routes that hold or look up tenant data: each called as the other tenant. */
const MATRIX: Record<RouteName, Probe> = {
  "POST /api/v1/keys": both(
    refusedFor(NOT_MANAGEMENT, 403, () => ({
      method: "POST",
      path: "/api/v1/keys",
      body: { name: "intruder" },
    })),
    ownOnly(
      ["management"],
      () => ({ method: "POST", path: "/api/v1/keys", body: { name: "b-own-key" } }),
      (body) => expect(body).toMatchObject({ data: { name: "b-own-key" } }),
    ),
  ),
  "GET /api/v1/keys": both(
    refusedFor(NOT_MANAGEMENT, 403, () => ({ method: "GET", path: "/api/v1/keys" })),
    ownOnly(
      ["management"],
      () => ({ method: "GET", path: "/api/v1/keys?include_disabled=true" }),
      lists("name", () => B_KEY_NAME),
    ),
  ),
  "GET /api/v1/keys/:hash": both(
    refusedFor(["management"], 404, ({ a }) => ({ method: "GET", path: `/api/v1/keys/${a.keyHash}` })),
    refusedFor(NOT_MANAGEMENT, 403, ({ a }) => ({ method: "GET", path: `/api/v1/keys/${a.keyHash}` })),
  ),
  "PATCH /api/v1/keys/:hash": both(
    refusedFor(["management"], 404, ({ a }) => ({
      method: "PATCH",
      path: `/api/v1/keys/${a.keyHash}`,
      body: { disabled: true, name: "hijacked", limit: 0 },
    })),
    refusedFor(NOT_MANAGEMENT, 403, ({ a }) => ({
      method: "PATCH",
      path: `/api/v1/keys/${a.keyHash}`,
      body: { disabled: true },
    })),
  ),
  "DELETE /api/v1/keys/:hash": both(
    refusedFor(["management"], 404, ({ a }) => ({ method: "DELETE", path: `/api/v1/keys/${a.keyHash}` })),
    refusedFor(NOT_MANAGEMENT, 403, ({ a }) => ({ method: "DELETE", path: `/api/v1/keys/${a.keyHash}` })),
  ),
  // A's management keys: B's management key gets 404 (never reveal that they exist), B's other
  // credentials 403; B's own list shows its own management key. A's keys still work (stateOfA reads them).
  "GET /api/v1/management-keys": both(
    refusedFor(NOT_MANAGEMENT, 403, () => ({ method: "GET", path: "/api/v1/management-keys" })),
    ownOnly(
      ["management"],
      () => ({ method: "GET", path: "/api/v1/management-keys" }),
      lists("hash", (world) => hashSecret(world.others.management)),
    ),
  ),
  "DELETE /api/v1/management-keys/:hash": both(
    refusedFor(["management"], 404, ({ a }) => ({
      method: "DELETE",
      path: `/api/v1/management-keys/${a.managementHash}`,
    })),
    refusedFor(NOT_MANAGEMENT, 403, ({ a }) => ({
      method: "DELETE",
      path: `/api/v1/management-keys/${a.managementHash}`,
    })),
  ),
  "POST /api/v1/management-keys/:hash/rotate": both(
    refusedFor(["management"], 404, ({ a }) => ({
      method: "POST",
      path: `/api/v1/management-keys/${a.managementHash}/rotate`,
    })),
    refusedFor(NOT_MANAGEMENT, 403, ({ a }) => ({
      method: "POST",
      path: `/api/v1/management-keys/${a.managementHash}/rotate`,
    })),
  ),
  "POST /api/v1/byok": both(
    refusedFor(NOT_MANAGEMENT, 403, () => ({
      method: "POST",
      path: "/api/v1/byok",
      body: { provider: "openai", key: "sk-intruder-0123456789" },
    })),
    ownOnly(
      ["management"],
      () => ({
        method: "POST",
        path: "/api/v1/byok",
        body: { provider: "openai", key: "sk-b-own-0123456789", name: "b-own" },
      }),
      (body) => expect(body).toMatchObject({ data: { name: "b-own" } }),
    ),
  ),
  "GET /api/v1/byok": both(
    refusedFor(NOT_MANAGEMENT, 403, () => ({ method: "GET", path: "/api/v1/byok" })),
    ownOnly(
      ["management"],
      () => ({ method: "GET", path: "/api/v1/byok" }),
      lists("name", () => B_BYOK_NAME),
    ),
  ),
  "GET /api/v1/byok/:id": both(
    refusedFor(["management"], 404, ({ a }) => ({ method: "GET", path: `/api/v1/byok/${a.byokId}` })),
    refusedFor(NOT_MANAGEMENT, 403, ({ a }) => ({ method: "GET", path: `/api/v1/byok/${a.byokId}` })),
  ),
  "PATCH /api/v1/byok/:id": both(
    refusedFor(["management"], 404, ({ a }) => ({
      method: "PATCH",
      path: `/api/v1/byok/${a.byokId}`,
      body: { disabled: true, key: "sk-replaced-0123456789", name: "hijacked" },
    })),
    refusedFor(NOT_MANAGEMENT, 403, ({ a }) => ({
      method: "PATCH",
      path: `/api/v1/byok/${a.byokId}`,
      body: { disabled: true },
    })),
  ),
  "DELETE /api/v1/byok/:id": both(
    refusedFor(["management"], 404, ({ a }) => ({ method: "DELETE", path: `/api/v1/byok/${a.byokId}` })),
    refusedFor(NOT_MANAGEMENT, 403, ({ a }) => ({ method: "DELETE", path: `/api/v1/byok/${a.byokId}` })),
  ),
  "GET /api/v1/credits": both(
    refusedFor(NOT_MANAGEMENT, 403, () => ({ method: "GET", path: "/api/v1/credits" })),
    async (world) => {
      // B's own totals (3 USD), never A's (7 USD).
      const answer = await world.call("GET", "/api/v1/credits", world.others.management);
      expect(answer.status).toBe(200);
      expect((JSON.parse(answer.text) as { data: { total_credits: number } }).data.total_credits).toBe(3);
    },
  ),
  "GET /api/v1/credits/transactions": both(
    refusedFor(NOT_MANAGEMENT, 403, () => ({ method: "GET", path: "/api/v1/credits/transactions" })),
    async (world) => {
      // B's own credit (3 USD), never A's (7 USD); A's own list has A's (the control).
      const amounts = async (secret: string) => {
        const answer = await world.call("GET", "/api/v1/credits/transactions?limit=100", secret);
        expect(answer.status, answer.text).toBe(200);
        const lines = (JSON.parse(answer.text) as { data: { kind: string; amount: number }[] }).data;
        return lines.filter((line) => line.kind !== "usage").map((line) => line.amount);
      };
      expect(await amounts(world.a.management)).toContain(7);
      expect(await amounts(world.others.management)).toEqual([3]);
    },
  ),
  "GET /api/v1/activity": both(
    refusedFor(NOT_MANAGEMENT, 403, () => ({ method: "GET", path: "/api/v1/activity" })),
    ownOnly(["management"], () => ({ method: "GET", path: "/api/v1/activity" }), nonEmpty),
    async (world) => {
      // Filtered by the key that made A's generation, A sees its traffic (the control); B sees none of it.
      const record = await world.call("GET", `/api/v1/generation?id=${world.a.generationId}`, world.a.apiKey);
      const { key_hash } = (JSON.parse(record.text) as { data: { key_hash: string } }).data;
      const path = `/api/v1/activity?api_key_hash=${key_hash}`;
      const rows = async (secret: string) => {
        const answer = await world.call("GET", path, secret);
        expect(answer.status, answer.text).toBe(200);
        return (JSON.parse(answer.text) as { data: unknown[] }).data.length;
      };
      await expect.poll(() => rows(world.a.management), { timeout: 15_000 }).toBeGreaterThan(0);
      expect(await rows(world.others.management)).toBe(0);
    },
  ),
  "GET /api/v1/generations": both(
    refusedFor(NOT_MANAGEMENT, 403, () => ({ method: "GET", path: "/api/v1/generations" })),
    ownOnly(
      ["management"],
      () => ({ method: "GET", path: "/api/v1/generations?limit=100" }),
      lists("id", (world) => world.b.generationId),
    ),
    async (world) => {
      // A's management key lists A's generation (the control); B's lists none of A's, under any filter.
      const ids = async (secret: string, query = "") => {
        const answer = await world.call("GET", `/api/v1/generations?limit=100${query}`, secret);
        expect(answer.status, answer.text).toBe(200);
        return (JSON.parse(answer.text) as { data: { id: string }[] }).data.map((item) => item.id);
      };
      expect(await ids(world.a.management)).toContain(world.a.generationId);
      expect(await ids(world.others.management, "&model=demo/echo")).not.toContain(world.a.generationId);
    },
  ),
  // The operator's routes: an operator token only; every tenant credential is refused, nothing changes.
  "GET /api/v1/admin/accounts": refusedFor(ALL, 403, () => ({
    method: "GET",
    path: "/api/v1/admin/accounts",
  })),
  "POST /api/v1/admin/accounts": refusedFor(ALL, 403, () => ({
    method: "POST",
    path: "/api/v1/admin/accounts",
    body: { name: "intruder" },
  })),
  "POST /api/v1/admin/accounts/:id/credits": refusedFor(ALL, 403, ({ a }) => ({
    method: "POST",
    path: `/api/v1/admin/accounts/${a.accountId}/credits`,
    body: { amount: 1000, reason: "free money" },
  })),
  // The operator's catalogue: global reads and writes (prices, aliases, imports, disabling a model every
  // tenant uses). Every tenant credential is refused; the catalogue (read in stateOfA) is unchanged.
  "GET /api/v1/admin/catalog": refusedFor(ALL, 403, () => ({ method: "GET", path: "/api/v1/admin/catalog" })),
  "GET /api/v1/admin/catalog/changes": refusedFor(ALL, 403, () => ({
    method: "GET",
    path: "/api/v1/admin/catalog/changes",
  })),
  "POST /api/v1/admin/catalog/import": refusedFor(ALL, 403, () => ({
    method: "POST",
    path: "/api/v1/admin/catalog/import",
    body: { format: "json", content: "{}", apply: true },
  })),
  "POST /api/v1/admin/catalog/prices": refusedFor(ALL, 403, () => ({
    method: "POST",
    path: "/api/v1/admin/catalog/prices",
    body: { model: "demo/echo", provider: "demo", pricing: { prompt: "0", completion: "0" } },
  })),
  "POST /api/v1/admin/catalog/data-policy": refusedFor(ALL, 403, () => ({
    method: "POST",
    path: "/api/v1/admin/catalog/data-policy",
    body: { model: "demo/echo", provider: "demo", is_zdr: true },
  })),
  "POST /api/v1/admin/catalog/limits": refusedFor(ALL, 403, () => ({
    method: "POST",
    path: "/api/v1/admin/catalog/limits",
    body: { model: "demo/echo", limit: { requests: 1, interval_seconds: 60 } },
  })),
  "POST /api/v1/admin/catalog/disable": refusedFor(ALL, 403, () => ({
    method: "POST",
    path: "/api/v1/admin/catalog/disable",
    body: { model: "demo/echo", provider: "demo" },
  })),
  "POST /api/v1/admin/catalog/enable": refusedFor(ALL, 403, () => ({
    method: "POST",
    path: "/api/v1/admin/catalog/enable",
    body: { model: "demo/echo", provider: "demo" },
  })),
  "POST /api/v1/admin/catalog/aliases": refusedFor(ALL, 403, () => ({
    method: "POST",
    path: "/api/v1/admin/catalog/aliases",
    body: { alias: "intruder/alias", model: "demo/echo" },
  })),
  "GET /api/v1/models/user": ownOnly(
    API_CALLERS,
    () => ({ method: "GET", path: "/api/v1/models/user" }),
    nonEmpty,
  ),
  "GET /api/v1/generation": refusedFor(ALL, 404, ({ a }) => ({
    method: "GET",
    path: `/api/v1/generation?id=${encodeURIComponent(a.generationId)}`,
  })),
  "GET /v1/key": ownOnly(ALL, () => ({ method: "GET", path: "/v1/key" }), ownKey),
  "GET /api/v1/key": ownOnly(ALL, () => ({ method: "GET", path: "/api/v1/key" }), ownKey),
  "POST /v1/messages/batches": ownOnly(
    ["inference"],
    () => ({
      method: "POST",
      path: "/v1/messages/batches",
      body: {
        requests: [
          {
            custom_id: "b1",
            params: { model: "demo/echo", max_tokens: 5, messages: [{ role: "user", content: "b" }] },
          },
        ],
      },
    }),
    (body) => expect(body).toMatchObject({ type: "message_batch", id: expect.any(String) }),
  ),
  "GET /v1/messages/batches": both(
    ownOnly(
      ["inference"],
      () => ({ method: "GET", path: "/v1/messages/batches" }),
      lists("id", (world) => world.b.batchId),
    ),
    ownOnly(
      ["wallet"],
      () => ({ method: "GET", path: "/v1/messages/batches" }),
      // The wallet's account holds no batch: its own list is exactly empty.
      (body) => expect(listed(body, "id")).toEqual([]),
    ),
    refusedFor(["management"], 403, () => ({ method: "GET", path: "/v1/messages/batches" })),
  ),
  "GET /v1/messages/batches/:id": both(
    refusedFor(API_CALLERS, 404, ({ a }) => ({ method: "GET", path: `/v1/messages/batches/${a.batchId}` })),
    refusedFor(["management"], 403, ({ a }) => ({
      method: "GET",
      path: `/v1/messages/batches/${a.batchId}`,
    })),
  ),
  "POST /v1/messages/batches/:id/cancel": both(
    refusedFor(API_CALLERS, 404, ({ a }) => ({
      method: "POST",
      path: `/v1/messages/batches/${a.batchId}/cancel`,
    })),
    refusedFor(["management"], 403, ({ a }) => ({
      method: "POST",
      path: `/v1/messages/batches/${a.batchId}/cancel`,
    })),
  ),
  "DELETE /v1/messages/batches/:id": both(
    refusedFor(API_CALLERS, 404, ({ a }) => ({
      method: "DELETE",
      path: `/v1/messages/batches/${a.batchId}`,
    })),
    refusedFor(["management"], 403, ({ a }) => ({
      method: "DELETE",
      path: `/v1/messages/batches/${a.batchId}`,
    })),
  ),
  "GET /v1/messages/batches/:id/results": both(
    refusedFor(API_CALLERS, 404, ({ a }) => ({
      method: "GET",
      path: `/v1/messages/batches/${a.batchId}/results`,
    })),
    refusedFor(["management"], 403, ({ a }) => ({
      method: "GET",
      path: `/v1/messages/batches/${a.batchId}/results`,
    })),
  ),
};

describeWith(
  ["postgres", "redis"],
  "tenancy matrix: every management and lookup route as another tenant",
  () => {
    const dataDir = mkdtempSync(join(tmpdir(), "gw-tenancy-"));
    let database: TestDatabase;
    let gateway: AppProcess | undefined;
    let url: string;
    let host: string;
    let world: World;
    let before: string;

    async function call(method: string, path: string, secret: string, body?: unknown): Promise<Answer> {
      const response = await fetch(`${url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${secret}`,
          "anthropic-version": "2023-06-01",
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.status, text: await response.text() };
    }

    async function tenant(name: string, credits: string, keyName = `${name}-key`): Promise<Tenant> {
      const created = JSON.parse(
        await runCli(
          "apps/standalone/dist/cli/main.js",
          ["accounts", "create", "--name", name, "--credits", credits, "--json"],
          {
            DATABASE_URL: database.url,
            GW_DATA_DIR: dataDir,
          },
        ),
      ) as { account_id: string; management_key: string };
      const key = await call("POST", "/api/v1/keys", created.management_key, { name: keyName });
      expect(key.status, key.text).toBe(201);
      return {
        accountId: created.account_id,
        management: created.management_key,
        apiKey: (JSON.parse(key.text) as { key: string }).key,
      };
    }

    async function walletJwt(): Promise<string> {
      const account = privateKeyToAccount(generatePrivateKey());
      const message = createSiweMessage({
        domain: host,
        address: account.address,
        uri: `${url}/v1/x402/auth`,
        version: "1",
        chainId: 8453,
        nonce: generateSiweNonce(),
        issuedAt: new Date(),
      });
      const proof = Buffer.from(
        JSON.stringify({ message, signature: await account.signMessage({ message }) }),
      );
      const response = await fetch(`${url}/v1/x402/auth`, {
        method: "POST",
        headers: { "sign-in-with-x": proof.toString("base64") },
      });
      expect(response.status).toBe(200);
      return ((await response.json()) as { jwt: string }).jwt;
    }

    /** Everything of A a probe could have changed, as A itself reads it. */
    async function stateOfA(): Promise<string> {
      const { a } = world;
      const reads = await Promise.all([
        call("GET", "/api/v1/keys?include_disabled=true", a.management),
        call("GET", "/api/v1/management-keys", a.management),
        call("GET", `/api/v1/keys/${a.keyHash}`, a.management),
        call("GET", "/api/v1/byok", a.management),
        call("GET", `/api/v1/byok/${a.byokId}`, a.management),
        call("GET", "/api/v1/credits", a.management),
        call("GET", `/api/v1/generation?id=${a.generationId}`, a.apiKey),
        call("GET", `/v1/messages/batches/${a.batchId}`, a.apiKey),
        call("GET", "/v1/key", a.apiKey),
        // The catalogue A is billed by: an operator route's write would show here.
        call("GET", "/api/v1/models", a.apiKey),
      ]);
      for (const read of reads) expect(read.status, read.text).toBe(200);
      return JSON.stringify(reads.map((read) => JSON.parse(read.text) as unknown));
    }

    /** B's own BYOK credential, generation (visible in its activity) and batch, for B's own lists. */
    async function ownObjectsOfB(b: Tenant): Promise<World["b"]> {
      // Anthropic: the POST /api/v1/byok probe adds B's OpenAI credential (one per provider).
      const byok = await call("POST", "/api/v1/byok", b.management, {
        provider: "anthropic",
        key: `sk-tenant-b-${randomBytes(12).toString("hex")}`,
        name: B_BYOK_NAME,
      });
      expect(byok.status, byok.text).toBe(201);
      const chat = await fetch(`${url}/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${b.apiKey}`, "content-type": "application/json" },
        body: JSON.stringify({ model: "demo/echo", messages: [{ role: "user", content: "tenant b" }] }),
      });
      expect(chat.status).toBe(200);
      const generationId = chat.headers.get("x-generation-id") ?? "";
      await eventually(async () => {
        const activity = await call("GET", "/api/v1/activity", b.management);
        const rows = (JSON.parse(activity.text) as { data?: unknown[] }).data ?? [];
        const read = await call("GET", `/api/v1/generation?id=${generationId}`, b.apiKey);
        return read.status === 200 && rows.length > 0 ? true : undefined;
      }, 60_000);
      const batch = await call("POST", "/v1/messages/batches", b.apiKey, {
        requests: [
          {
            custom_id: "b0",
            params: { model: "demo/echo", max_tokens: 5, messages: [{ role: "user", content: "b" }] },
          },
        ],
      });
      expect(batch.status, batch.text).toBe(200);
      return { generationId, batchId: (JSON.parse(batch.text) as { id: string }).id };
    }

    beforeAll(async () => {
      database = await createTestDatabase();
      const port = await freePort();
      host = `127.0.0.1:${port}`;
      url = `http://${host}`;
      const env: Record<string, string> = {
        PORT: String(port),
        GW_DATA_DIR: dataDir,
        LOG_LEVEL: "warn",
        DATABASE_URL: database.url,
        REDIS_URL: serviceUrl("redis"),
        BYOK_MASTER_KEY: randomBytes(32).toString("base64"),
      };
      for (const name of [
        "KAFKA_BROKERS",
        "OPENAI_API_KEY",
        "WALLET_JWT_SECRET",
        "WALLET_JWT_SECRET_FILE",
        "PUBLIC_BASE_URL",
      ])
        env[name] = "";
      gateway = startProcess("standalone", "apps/standalone/dist/main.js", env);
      await waitForHttp(`${url}/readyz`, gateway, 120_000);

      const a = await tenant("tenant-a", "7");
      const b = await tenant("tenant-b", "3", B_KEY_NAME);
      const key = await call("POST", "/api/v1/keys", a.management, { name: A_KEY_NAME, limit: 5 });
      expect(key.status, key.text).toBe(201);
      const byok = await call("POST", "/api/v1/byok", a.management, {
        provider: "openai",
        key: A_BYOK_SECRET,
        name: A_BYOK_NAME,
      });
      expect(byok.status, byok.text).toBe(201);
      const chat = await fetch(`${url}/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${a.apiKey}`, "content-type": "application/json" },
        body: JSON.stringify({ model: "demo/echo", messages: [{ role: "user", content: "tenant a" }] }),
      });
      expect(chat.status).toBe(200);
      const generationId = chat.headers.get("x-generation-id") ?? "";
      await eventually(async () => {
        const read = await call("GET", `/api/v1/generation?id=${generationId}`, a.apiKey);
        return read.status === 200 ? true : undefined;
      });
      const batch = await call("POST", "/v1/messages/batches", a.apiKey, {
        requests: [
          {
            custom_id: "a1",
            params: { model: "demo/echo", max_tokens: 5, messages: [{ role: "user", content: "a" }] },
          },
        ],
      });
      expect(batch.status, batch.text).toBe(200);
      const batchId = (JSON.parse(batch.text) as { id: string }).id;
      const own = await ownObjectsOfB(b);
      world = {
        call,
        a: {
          ...a,
          keyHash: (JSON.parse(key.text) as { data: { hash: string } }).data.hash,
          managementHash: hashSecret(a.management),
          byokId: (JSON.parse(byok.text) as { data: { id: string } }).data.id,
          generationId,
          batchId,
        },
        others: { management: b.management, inference: b.apiKey, wallet: await walletJwt() },
        b: own,
      };
      // The batch's one request is served by the worker; wait until it ended so its state is settled.
      await eventually(async () => {
        const read = await call("GET", `/v1/messages/batches/${batchId}`, a.apiKey);
        return (JSON.parse(read.text) as { processing_status?: string }).processing_status === "ended"
          ? true
          : undefined;
      }, 60_000);
      // A's usage reaches billing and generations asynchronously: the snapshot is taken once it is still.
      before = await eventually(async () => {
        const first = await stateOfA();
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        return first === (await stateOfA()) ? first : undefined;
      }, 60_000);
    }, 240_000);

    afterAll(async () => {
      await gateway?.stop();
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it("has a row (a probe or a reason for none) for every route the apps register, and none for a route gone", async () => {
      const registered = [...(await registeredRoutes()).keys()].sort();
      const covered = [...Object.keys(MATRIX), ...Object.keys(EXEMPT)].sort();
      const missing = registered.filter((route) => !covered.includes(route));
      const stale = covered.filter((route) => !registered.includes(route));
      expect({ missing, stale }, "add a MATRIX row (or an EXEMPT reason) in tenancy.e2e.test.ts").toEqual({
        missing: [],
        stale: [],
      });
      expect(Object.keys(MATRIX).filter((route) => route in EXEMPT)).toEqual([]);
      console.log(
        `tenancy matrix: ${Object.keys(MATRIX).length} probed routes, ${Object.keys(EXEMPT).length} exempt`,
      );
    });

    it.each(Object.entries(MATRIX))(
      "%s refuses another tenant or answers with its own data only",
      async (_route, probe) => {
        await probe(world);
      },
    );

    it("left every object of tenant A as it was, and A still uses all of them", async () => {
      expect(await stateOfA()).toBe(before);
      const chat = await fetch(`${url}/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${world.a.apiKey}`, "content-type": "application/json" },
        body: JSON.stringify({ model: "demo/echo", messages: [{ role: "user", content: "still mine" }] }),
      });
      expect(chat.status).toBe(200);
    });
  },
);
