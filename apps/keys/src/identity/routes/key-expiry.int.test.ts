import { hashSecret } from "@gw/auth";
import { AuthFailureReason } from "@gw/proto/keys/v1/keys";
import { describeWith } from "@gw/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, type KeysHarness, startKeysHarness } from "../../test/harness.js";
import { authenticateKey } from "../keys/authenticate.js";
import type { KeyJson } from "../keys/view.js";
import type { CreatedAccount } from "../operator.js";

// PATCH /api/v1/keys/{hash} with `expires_at`: beyond the spec's PATCH fields (a lead's decision, see
// apps/keys/README.md). The value is checked exactly as on create, null removes the expiry, and each
// change is stored, answered by Authenticate at once and announced to the edges as `updated`.
describeWith(["postgres"], "PATCH expires_at", () => {
  let harness: KeysHarness;
  let owner: CreatedAccount;
  let stranger: CreatedAccount;

  beforeAll(async () => {
    harness = await startKeysHarness();
    owner = await harness.account("owner");
    stranger = await harness.account("stranger");
  });

  afterAll(async () => {
    await harness?.close();
  });

  const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

  async function createKey(body: Record<string, unknown>) {
    const response = await harness.request("POST", "/api/v1/keys", { key: owner.managementKey, body });
    expect(response.status).toBe(201);
    return { secret: response.body.key as string, data: response.body.data as KeyJson };
  }

  async function patch(hash: string, body: unknown, account: CreatedAccount = owner) {
    return harness.request("PATCH", `/api/v1/keys/${hash}`, { key: account.managementKey, body });
  }

  async function stored(hash: string): Promise<KeyJson> {
    const response = await harness.request("GET", `/api/v1/keys/${hash}`, { key: owner.managementKey });
    expect(response.status).toBe(200);
    return response.body.data as KeyJson;
  }

  /** The events published for `hash` after `from`, once `count` of them have arrived. */
  async function changesOf(hash: string, from: number, count: number) {
    const mine = () => harness.keyChanges.slice(from).filter((change) => change.keyHash === hash);
    await eventually(() => mine().length >= count);
    return mine();
  }

  it("sets an expiry on a key that had none, and Authenticate carries it", async () => {
    const { secret, data } = await createKey({ name: "set", limit: 4 });
    expect(data.expires_at).toBeNull();
    const before = harness.keyChanges.length;
    const expiresAt = inDays(3);

    const response = await patch(data.hash, { expires_at: expiresAt });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ expires_at: expiresAt, name: "set", limit: 4 });
    expect((await stored(data.hash)).expires_at).toBe(expiresAt);
    const answer = await authenticateKey(harness.database.db, hashSecret(secret));
    expect(answer.result?.$case === "principal" && answer.result.value.expiresAt).toEqual(
      new Date(expiresAt),
    );
    expect(await changesOf(data.hash, before, 1)).toEqual([
      { keyHash: data.hash, accountId: owner.accountId, change: "updated" },
    ]);
  });

  it("moves an expiry and leaves the other fields alone", async () => {
    const { data } = await createKey({ name: "move", expires_at: inDays(1), allowed_providers: ["openai"] });
    const later = inDays(30);
    const response = await patch(data.hash, { expires_at: later });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({
      expires_at: later,
      name: "move",
      allowed_providers: ["openai"],
      disabled: false,
    });
    expect((await stored(data.hash)).expires_at).toBe(later);
  });

  it("removes an expiry with null", async () => {
    const { secret, data } = await createKey({ name: "remove", expires_at: inDays(1) });
    const before = harness.keyChanges.length;
    const response = await patch(data.hash, { expires_at: null });
    expect(response.status).toBe(200);
    expect((response.body.data as KeyJson).expires_at).toBeNull();
    expect((await stored(data.hash)).expires_at).toBeNull();
    const answer = await authenticateKey(harness.database.db, hashSecret(secret));
    expect(answer.result?.$case).toBe("principal");
    expect(answer.result?.$case === "principal" && answer.result.value.expiresAt).toBeUndefined();
    expect(await changesOf(data.hash, before, 1)).toMatchObject([{ change: "updated" }]);
  });

  it("brings an expired key back by removing or moving its expiry", async () => {
    const { secret, data } = await createKey({
      name: "lapsed",
      expires_at: new Date(Date.now() + 400).toISOString(),
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await authenticateKey(harness.database.db, hashSecret(secret))).result).toEqual({
      $case: "failure",
      value: AuthFailureReason.AUTH_FAILURE_REASON_KEY_EXPIRED,
    });

    expect((await patch(data.hash, { expires_at: null })).status).toBe(200);
    expect((await authenticateKey(harness.database.db, hashSecret(secret))).result?.$case).toBe("principal");

    const later = inDays(2);
    expect((await patch(data.hash, { expires_at: later })).body.data).toMatchObject({ expires_at: later });
    expect((await authenticateKey(harness.database.db, hashSecret(secret))).result?.$case).toBe("principal");
  });

  describe("refused as on create: 400 naming expires_at, nothing stored, nothing announced", () => {
    const cases: Array<[string, unknown]> = [
      ["in the past", "2020-01-01T00:00:00Z"],
      ["now-ish (already past when checked)", new Date(Date.now() - 1_000).toISOString()],
      ["not a timestamp", "tomorrow"],
      ["a date without a time", "2031-01-01"],
      ["an offset other than UTC", inDays(2).replace("Z", "+02:00")],
      ["a number", 1_900_000_000_000],
    ];
    for (const [label, value] of cases) {
      it(`${label}: ${JSON.stringify(value)}`, async () => {
        const original = inDays(5);
        const { data } = await createKey({ name: `bad ${label}`, expires_at: original });
        const before = harness.keyChanges.length;

        const response = await patch(data.hash, { expires_at: value, name: "renamed" });
        expect(response.status).toBe(400);
        expect(response.body.error).toMatchObject({ type: "invalid_request_error" });
        expect((response.body.error as { message: string }).message).toMatch(/^expires_at: /);
        // The same answer, word for word, as create gives for the same value.
        const onCreate = await harness.request("POST", "/api/v1/keys", {
          key: owner.managementKey,
          body: { name: "never made", expires_at: value },
        });
        expect(onCreate.status).toBe(400);
        expect(response.body).toEqual(onCreate.body);

        expect(await stored(data.hash)).toMatchObject({ name: `bad ${label}`, expires_at: original });
        // A later change is the first event for this key: the refused PATCH announced nothing.
        await patch(data.hash, { name: "after" });
        expect(await changesOf(data.hash, before, 1)).toHaveLength(1);
      });
    }
  });

  it("another account's key is a 404 and stays as it was", async () => {
    const original = inDays(5);
    const { secret, data } = await createKey({ name: "mine", expires_at: original });
    for (const value of [null, inDays(1)]) {
      const response = await patch(data.hash, { expires_at: value }, stranger);
      expect(response.status).toBe(404);
      expect(response.body.error).toMatchObject({ type: "not_found_error" });
    }
    expect((await stored(data.hash)).expires_at).toBe(original);
    const answer = await authenticateKey(harness.database.db, hashSecret(secret));
    expect(answer.result?.$case === "principal" && answer.result.value.expiresAt).toEqual(new Date(original));
  });
});
