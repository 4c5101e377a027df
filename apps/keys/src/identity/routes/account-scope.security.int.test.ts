import { hashSecret } from "@gw/auth";
import { describeWith } from "@gw/testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import { eventually, type KeysHarness, startKeysHarness } from "../../test/harness.js";
import { authenticateKey } from "../keys/authenticate.js";
import { type CreatedAccount, setAccountScope } from "../operator.js";

// A key can only narrow its tenant: the account's provider/model scope is the ceiling of every key.
describeWith(["postgres"], "account scope bounds every key", () => {
  let harness: KeysHarness;
  let scoped: CreatedAccount;

  beforeAll(async () => {
    harness = await startKeysHarness();
    scoped = await harness.account("scoped");
    await setAccountScope(harness.database, {
      accountId: scoped.accountId,
      allowedProviders: ["openai", "demo"],
      allowedModels: ["openai/gpt-4o-mini"],
    });
  });

  afterAll(async () => {
    await harness?.close();
  });

  const create = (body: Record<string, unknown>) =>
    harness.request("POST", "/api/v1/keys", { key: scoped.managementKey, body });

  it("refuses a provider outside the scope with 403 naming it", async () => {
    const response = await create({ name: "k", allowed_providers: ["openai", "together"] });
    expect(response.status).toBe(403);
    expect(response.body.error).toMatchObject({
      type: "permission_error",
      metadata: { reason: "outside_account_scope" },
      message: "allowed_providers: outside this account's scope: provider together",
    });
  });

  it("refuses a model outside the scope with 403 naming it, on create and on PATCH", async () => {
    const created = await create({ name: "k", allowed_models: ["meta-llama/llama-3.3-70b-instruct"] });
    expect(created.status).toBe(403);
    expect((created.body.error as { message: string }).message).toBe(
      "allowed_models: outside this account's scope: model meta-llama/llama-3.3-70b-instruct",
    );
    const ok = await create({ name: "narrow", allowed_providers: ["demo"] });
    expect(ok.status).toBe(201);
    const hash = (ok.body.data as { hash: string }).hash;
    const patched = await harness.request("PATCH", `/api/v1/keys/${hash}`, {
      key: scoped.managementKey,
      body: { allowed_providers: ["together"] },
    });
    expect(patched.status).toBe(403);
    expect((patched.body.error as { message: string }).message).toContain("together");
  });

  it("still answers 400 for unknown ids before judging the scope", async () => {
    const response = await create({ name: "k", allowed_providers: ["nope"] });
    expect(response.status).toBe(400);
    expect((response.body.error as { message: string }).message).toBe(
      "allowed_providers: unknown provider: nope",
    );
  });

  it("gives an unrestricted key exactly the tenant's scope, and narrows keys when the scope shrinks", async () => {
    const open = await create({ name: "open" });
    expect(open.status).toBe(201);
    const wide = await authenticateKey(harness.database.db, hashSecret(open.body.key as string));
    expect(wide.result?.$case === "principal" && wide.result.value.allowedProviders?.values).toEqual([
      "openai",
      "demo",
    ]);
    await setAccountScope(harness.database, {
      accountId: scoped.accountId,
      allowedProviders: ["demo"],
      allowedModels: ["openai/gpt-4o-mini"],
    });
    const narrowed = await authenticateKey(harness.database.db, hashSecret(open.body.key as string));
    expect(narrowed.result?.$case === "principal" && narrowed.result.value.allowedProviders?.values).toEqual([
      "demo",
    ]);
  });

  it("announces every live key of the account when given a change feed", async () => {
    const account = await harness.account("announced");
    const key = await harness.request("POST", "/api/v1/keys", {
      key: account.managementKey,
      body: { name: "k" },
    });
    const hash = (key.body.data as { hash: string }).hash;
    await setAccountScope(
      harness.database,
      { accountId: account.accountId, allowedProviders: ["openai"], allowedModels: null },
      { publisher: harness.bus, keyChangesTopic: harness.topics.keyChanges },
    );
    await eventually(() => {
      const announced = harness.keyChanges.filter((change) => change.accountId === account.accountId);
      return [hash, account.managementKeyHash].every((expected) =>
        announced.some((change) => change.keyHash === expected && change.change === "updated"),
      );
    });
  });

  it("rejects an operator scope naming unknown ids and an unknown account", async () => {
    await expect(
      setAccountScope(harness.database, {
        accountId: scoped.accountId,
        allowedProviders: ["nope"],
        allowedModels: null,
      }),
    ).rejects.toMatchObject({ status: 400 });
    await expect(
      setAccountScope(harness.database, {
        accountId: "acct_missing",
        allowedProviders: null,
        allowedModels: null,
      }),
    ).rejects.toMatchObject({ status: 404 });
  });
});
