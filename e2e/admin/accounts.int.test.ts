import { MemoryAdmissionStore } from "@gw/admission-store";
import { PrincipalResolver } from "@gw/auth";
import {
  SCHEMA as BILLING_SCHEMA,
  type BillingTables,
  migrations as billingMigrations,
  startBilling,
} from "@gw/billing";
import type { TopicConfig } from "@gw/config";
import { freePort } from "@gw/db";
import { InProcessEventBus } from "@gw/events";
import {
  bundledCatalog,
  connectBillingUsage,
  createAccount,
  createApiKey,
  createOperatorToken,
  SCHEMA as KEYS_SCHEMA,
  type KeysTables,
  migrations as keysMigrations,
  revokeOperatorToken,
  startKeys,
} from "@gw/keys";
import { memoryLogger, silentLogger } from "@gw/logger";
import { describeWith, migratedTestDatabase, uniqueName } from "@gw/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The operator's account routes on the real keys app (which owns them) and the real billing app (whose
// ledger GrantCredits writes), over gRPC, each on its own PostgreSQL schema.

const HOST = "127.0.0.1";

interface Answer {
  status: number;
  body: Record<string, unknown>;
  text: string;
}
interface Credits {
  total_credits: number;
  total_usage: number;
  balance: number;
  is_free_tier: boolean;
}
interface Account {
  id: string;
  name: string;
  created_at: string;
  credits: Credits;
}

describeWith(["postgres"], "operator routes: /api/v1/admin/accounts", () => {
  const stops: (() => Promise<void>)[] = [];
  const audit = memoryLogger("info");
  let keysUrl: string;
  let operator: string;
  let keysDb: Awaited<ReturnType<typeof migratedTestDatabase<KeysTables>>>;

  const call = async (
    method: string,
    path: string,
    secret: string | undefined,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Answer> => {
    const response = await fetch(`${keysUrl}${path}`, {
      method,
      headers: {
        ...(secret === undefined ? {} : { authorization: `Bearer ${secret}` }),
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, text, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
  };
  const credit = (accountId: string, body: unknown, idempotencyKey?: string) =>
    call(
      "POST",
      `/api/v1/admin/accounts/${accountId}/credits`,
      operator,
      body,
      idempotencyKey === undefined ? {} : { "idempotency-key": idempotencyKey },
    );
  const listAll = async (limit: number): Promise<Account[]> => {
    const accounts: Account[] = [];
    let cursor: string | null = null;
    do {
      const query: string = `?limit=${limit}${cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`}`;
      const page = await call("GET", `/api/v1/admin/accounts${query}`, operator);
      expect(page.status, page.text).toBe(200);
      accounts.push(...(page.body.data as Account[]));
      cursor = page.body.next_cursor as string | null;
    } while (cursor !== null);
    return accounts;
  };

  beforeAll(async () => {
    const topics: TopicConfig = {
      usage: uniqueName("admin-usage"),
      keyChanges: uniqueName("admin-key-changes"),
      payments: uniqueName("admin-payments"),
    };
    const bus = new InProcessEventBus();
    stops.push(() => bus.close());
    keysDb = await migratedTestDatabase<KeysTables>(KEYS_SCHEMA, keysMigrations);
    stops.push(() => keysDb.drop());
    const billingDb = await migratedTestDatabase<BillingTables>(BILLING_SCHEMA, billingMigrations);
    stops.push(() => billingDb.drop());
    const keysGrpc = `${HOST}:${await freePort()}`;
    const principals = PrincipalResolver.connect(keysGrpc, {});
    stops.push(async () => principals.close());
    const billing = await startBilling(
      {
        bus,
        topics,
        logger: silentLogger(),
        database: billingDb.database,
        store: new MemoryAdmissionStore(),
        resolver: principals.resolver,
      },
      { host: HOST, httpPort: 0, grpcPort: 0 },
    );
    stops.push(() => billing.stop());
    const client = connectBillingUsage(billing.grpcAddress, {});
    stops.push(async () => client.close());
    const keys = await startKeys(
      {
        bus,
        topics,
        logger: audit.logger,
        database: keysDb.database,
        billing: client.usage,
        catalog: bundledCatalog(),
      },
      { host: HOST, httpPort: 0, grpcPort: Number(keysGrpc.split(":")[1]) },
    );
    stops.push(() => keys.stop());
    keysUrl = keys.httpUrl;
    operator = (await createOperatorToken(keysDb.database.db, "ops-test")).token;
  }, 60_000);

  afterAll(async () => {
    for (const stop of stops.reverse()) await stop();
  });

  it("creates an account with its first management key, shown once, that manages the account", async () => {
    const created = await call("POST", "/api/v1/admin/accounts", operator, { name: "  Acme  " });
    expect(created.status, created.text).toBe(201);
    const data = created.body.data as Account;
    expect(data).toMatchObject({
      name: "Acme",
      credits: { total_credits: 0, total_usage: 0, balance: 0, is_free_tier: true },
    });
    const managementKey = created.body.management_key as string;
    expect(managementKey).toMatch(/^\S{20,}$/);
    const keys = await call("GET", "/api/v1/keys", managementKey);
    expect(keys.status, keys.text).toBe(200);
    const listed = await listAll(100);
    expect(listed.find((account) => account.id === data.id)).toEqual(data);
    expect(JSON.stringify(listed)).not.toContain(managementKey);
    const line = audit.lines().find((entry) => entry.includes('"account.create"'));
    expect(line).toContain(data.id);
    expect(line).toContain('"actor":"operator:ops-test"');
    expect(audit.lines().join("\n")).not.toContain(managementKey);
    expect(audit.lines().join("\n")).not.toContain(operator);
  });

  it("credits an account once per Idempotency-Key, shows the balance in the list, and audits the reason", async () => {
    const account = (await call("POST", "/api/v1/admin/accounts", operator, { name: "Credited" })).body
      .data as Account;
    const first = await credit(account.id, { amount: "12.5", reason: "ticket 42" }, "grant-42");
    expect(first.status, first.text).toBe(201);
    expect(first.body.data).toMatchObject({
      account_id: account.id,
      amount: 12.5,
      kind: "purchase",
      created: true,
      credits: { total_credits: 12.5, total_usage: 0, balance: 12.5, is_free_tier: false },
    });
    const again = await credit(account.id, { amount: "12.5", reason: "ticket 42" }, "grant-42");
    expect(again.status, again.text).toBe(200);
    expect(again.body.data).toMatchObject({
      created: false,
      entry_id: (first.body.data as { entry_id: string }).entry_id,
      credits: { total_credits: 12.5 },
    });
    const gift = await credit(account.id, { amount: 0.25, kind: "grant", reason: "welcome" });
    expect(gift.status, gift.text).toBe(201);
    expect(gift.body.data).toMatchObject({ kind: "grant", credits: { total_credits: 12.75 } });
    const listed = (await listAll(100)).find((one) => one.id === account.id);
    expect(listed?.credits).toEqual({
      total_credits: 12.75,
      total_usage: 0,
      balance: 12.75,
      is_free_tier: false,
    });
    const reused = await credit(account.id, { amount: "99", reason: "other" }, "grant-42");
    expect(reused.status, reused.text).toBe(400);
    const line = audit.lines().find((entry) => entry.includes('"reason":"ticket 42"'));
    expect(line).toContain('"action":"account.credit"');
    expect(line).toContain(account.id);
  });

  it("pages every account once, newest first, with a cursor stable across new accounts", async () => {
    for (const name of ["p1", "p2", "p3", "p4"]) await createAccount(keysDb.database, { name });
    const all = await listAll(100);
    const times = all.map((account) => Date.parse(account.created_at));
    expect([...times].sort((x, y) => y - x)).toEqual(times);
    expect(await listAll(1)).toEqual(all);
    const first = await call("GET", "/api/v1/admin/accounts?limit=2", operator);
    await createAccount(keysDb.database, { name: "newer" });
    const rest = await call(
      "GET",
      `/api/v1/admin/accounts?limit=100&cursor=${encodeURIComponent(first.body.next_cursor as string)}`,
      operator,
    );
    const ids = [...(first.body.data as Account[]), ...(rest.body.data as Account[])].map((one) => one.id);
    expect(ids).toEqual(all.map((account) => account.id));
  });

  describe("refuses bad input with a 400 naming it", () => {
    const cases: [string, unknown, Record<string, string>, string][] = [
      ["a negative amount", { amount: -5, reason: "r" }, {}, "amount"],
      ["a zero amount", { amount: "0", reason: "r" }, {}, "amount"],
      ["a non-numeric amount", { amount: "ten", reason: "r" }, {}, "amount"],
      // Beyond one ledger entry's limit (and int64 pico-USD): a 400 naming the limit, never a 503.
      ["an amount beyond the limit", { amount: "9999999999999", reason: "r" }, {}, "at most 1000000 USD"],
      ["a number beyond the limit", { amount: 1_000_000.01, reason: "r" }, {}, "at most 1000000 USD"],
      ["no reason", { amount: 1 }, {}, "reason"],
      ["an unknown kind", { amount: 1, kind: "refund", reason: "r" }, {}, "kind"],
      [
        "a bad Idempotency-Key",
        { amount: 1, reason: "r" },
        { "idempotency-key": "has space" },
        "Idempotency-Key",
      ],
    ];
    it.each(cases)("%s", async (_name, body, headers, field) => {
      const account = (await listAll(100))[0] as Account;
      const answer = await call(
        "POST",
        `/api/v1/admin/accounts/${account.id}/credits`,
        operator,
        body,
        headers,
      );
      expect(answer.status, answer.text).toBe(400);
      expect(answer.text).toContain(field);
    });
    it("an empty name, a bad limit or cursor", async () => {
      expect((await call("POST", "/api/v1/admin/accounts", operator, { name: " " })).status).toBe(400);
      const long = await call("POST", "/api/v1/admin/accounts", operator, { name: "x".repeat(5000) });
      expect(long.status, long.text).toBe(400);
      expect(long.text).toContain("name");
      expect((await call("GET", "/api/v1/admin/accounts?limit=0", operator)).status).toBe(400);
      expect((await call("GET", "/api/v1/admin/accounts?limit=101", operator)).status).toBe(400);
      expect((await call("GET", "/api/v1/admin/accounts?cursor=bm9wZQ", operator)).status).toBe(400);
    });
    it("a name another account has, letter case and spaces aside (issue 34)", async () => {
      const first = await call("POST", "/api/v1/admin/accounts", operator, { name: "Twin Corp" });
      expect(first.status, first.text).toBe(201);
      const twin = await call("POST", "/api/v1/admin/accounts", operator, { name: "  twin corp " });
      expect(twin.status, twin.text).toBe(400);
      expect(twin.body.error).toMatchObject({ metadata: { field: "name" } });
      expect(twin.text).toContain("already exists");
      const names = (await listAll(100)).map((account) => account.name.toLowerCase());
      expect(names.filter((name) => name === "twin corp")).toHaveLength(1);
    });
    it("an unknown account is a 404 and nothing is credited", async () => {
      const answer = await credit("acct_nobody", { amount: 1, reason: "r" });
      expect(answer.status, answer.text).toBe(404);
    });
  });

  it("takes an operator token only: an account's keys are 403, no or a revoked token 401", async () => {
    const tenant = await createAccount(keysDb.database, { name: "tenant" });
    const apiKey = (await createApiKey(keysDb.database, { accountId: tenant.accountId, name: "k" })).key;
    const revoked = await createOperatorToken(keysDb.database.db, "gone");
    await revokeOperatorToken(keysDb.database.db, revoked.id);
    const routes: [string, string, unknown][] = [
      ["GET", "/api/v1/admin/accounts", undefined],
      ["POST", "/api/v1/admin/accounts", { name: "intruder" }],
      ["POST", `/api/v1/admin/accounts/${tenant.accountId}/credits`, { amount: 100, reason: "free money" }],
    ];
    const before = await listAll(100);
    for (const [method, path, body] of routes) {
      for (const [secret, status] of [
        [tenant.managementKey, 403],
        [apiKey, 403],
        [revoked.token, 401],
        [undefined, 401],
      ] as const) {
        const answer = await call(method, path, secret, body);
        expect({ path, method, status: answer.status }, answer.text).toEqual({ path, method, status });
      }
    }
    expect(await listAll(100)).toEqual(before);
  });
});
