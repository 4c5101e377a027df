import { silentLogger } from "@gw/logger";
import { afterEach, describe, expect, it } from "vitest";
import type { PlannedAttempt } from "../planning/plan.js";
import { RecordingBilling } from "../test/billing.js";
import { testEndpoint, testModel } from "../test/catalog.js";
import { testKey } from "../test/principals.js";
import { isLeaseHold } from "./admit.js";
import { admitPlanned } from "./admit-planned.js";
import { LeaseBook } from "./lease-book.js";

const principal = testKey("acct-1").principal;
const worstCase = { promptTokens: 10, maxTokens: 10, choices: 1, imageCount: 0 };
const books: LeaseBook[] = [];

afterEach(async () => {
  await Promise.all(books.splice(0).map((book) => book.close()));
});

function setup() {
  const billing = new RecordingBilling();
  billing.leaseGrantPico = 10n ** 15n;
  const leases = new LeaseBook({ billing, logger: silentLogger(), now: Date.now });
  books.push(leases);
  const admitOne = (attempts: PlannedAttempt[], generationId = "gen-1") =>
    admitPlanned(billing, { generationId, principal, requestedModel: "x", attempts, worstCase, leases });
  return { billing, admitOne };
}

const paid = (): PlannedAttempt => ({
  model: testModel("openai/gpt-4o-mini", [testEndpoint("openai")]),
  endpoint: testEndpoint("openai"),
});

describe("admitPlanned", () => {
  it("admits a paid request on the gateway's keys under the lease, without an Admit call", async () => {
    const { billing, admitOne } = setup();
    const hold = await admitOne([paid()]);
    expect(isLeaseHold(hold)).toBe(true);
    expect(billing.admits).toHaveLength(0);
  });

  it("admits a free model request with its own Admit: its rate windows are counted in billing", async () => {
    const { billing, admitOne } = setup();
    const free = testModel("test/model:free", [testEndpoint("openai")]);
    const hold = await admitOne([{ model: free, endpoint: testEndpoint("openai") }]);
    expect(isLeaseHold(hold)).toBe(false);
    expect(billing.admits).toMatchObject([{ holdId: "gen-1", isFreeModel: true }]);
    expect(billing.leaseAcquires).toHaveLength(0);
  });

  it("admits a model with its own request limit with its own Admit", async () => {
    const { billing, admitOne } = setup();
    const limited = testModel("test/limited", [testEndpoint("openai")], {
      modelLimit: { requests: 5, intervalSeconds: 60 },
    });
    const hold = await admitOne([{ model: limited, endpoint: testEndpoint("openai") }]);
    expect(isLeaseHold(hold)).toBe(false);
    expect(billing.admits[0]?.modelLimit).toEqual({ requests: 5, intervalSeconds: 60 });
  });

  it("admits a request any of whose attempts uses the account's own key with its own Admit", async () => {
    const { billing, admitOne } = setup();
    const byok = { ...paid(), byok: { credentialId: "byok_1" } };
    const hold = await admitOne([byok, paid()]);
    expect(isLeaseHold(hold)).toBe(false);
    expect(billing.admits).toHaveLength(1);
  });

  it("falls back to Admit when billing declines the lease", async () => {
    const { billing, admitOne } = setup();
    billing.leaseGrantPico = undefined;
    const hold = await admitOne([paid()]);
    expect(isLeaseHold(hold)).toBe(false);
    expect(billing.leaseAcquires).toHaveLength(1);
    expect(billing.admits).toHaveLength(1);
  });
});
