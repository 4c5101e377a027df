import { randomUUID } from "node:crypto";
import { INVALID_KEY_MESSAGE, MISSING_AUTH_MESSAGE } from "@gw/errors";
import { describeWith } from "@gw/testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import { addCredits } from "../operator/credits.js";
import { type Harness, startHarness, USD } from "../test/harness.js";

describeWith(["postgres", "redis"], "GET /api/v1/credits: authentication and tenancy", () => {
  let harness: Harness;
  const accountA = `acct_${randomUUID()}`;
  const accountB = `acct_${randomUUID()}`;

  const credits = (authorization?: string) =>
    fetch(`${harness.running.httpUrl}/api/v1/credits`, {
      headers: authorization ? { authorization } : {},
    });

  beforeAll(async () => {
    harness = await startHarness();
    await addCredits(harness.db.database, { accountId: accountA, amountPico: 100n * USD, kind: "purchase" });
    await addCredits(harness.db.database, { accountId: accountB, amountPico: 3n * USD, kind: "grant" });
  });

  afterAll(async () => {
    await harness.stop();
  });

  it("shows account B's management key only B's numbers", async () => {
    const keyB = harness.keys.addKey(accountB, "management");
    const response = await credits(`Bearer ${keyB}`);
    expect(await response.json()).toEqual({ data: { total_credits: 3, total_usage: 0 } });
    const keyA = harness.keys.addKey(accountA, "management");
    expect(await (await credits(`Bearer ${keyA}`)).json()).toEqual({
      data: { total_credits: 100, total_usage: 0 },
    });
  });

  it("refuses an API key with 403 permission_error", async () => {
    const apiKey = harness.keys.addKey(accountA, "regular");
    const response = await credits(`Bearer ${apiKey}`);
    expect(response.status).toBe(403);
    expect(((await response.json()) as { error: unknown }).error).toMatchObject({ type: "permission_error" });
  });

  it("refuses a missing or malformed Authorization header with the spec's 401", async () => {
    for (const header of [undefined, "Basic abc"]) {
      const response = await credits(header);
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({
        error: {
          message: MISSING_AUTH_MESSAGE,
          type: "authentication_error",
          code: 401,
          metadata: { reason: "missing_credentials" },
        },
      });
    }
  });

  it("refuses an unknown key with the spec's 401", async () => {
    const response = await credits(`Bearer lr_mgmt_${"0".repeat(48)}`);
    expect(response.status).toBe(401);
    expect(((await response.json()) as { error: unknown }).error).toMatchObject({
      message: INVALID_KEY_MESSAGE,
      type: "authentication_error",
    });
  });
});
