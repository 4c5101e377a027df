import { randomUUID } from "node:crypto";
import {
  AdmissionInputError,
  type AdmitResult,
  type KeySpendSnapshot,
  type LedgerSnapshot,
  MemoryAdmissionStore,
  type AdmitRequest as StoreAdmitRequest,
} from "@gw/admission-store";
import { GatewayError } from "@gw/errors";
import { memoryLogger } from "@gw/logger";
import { type AdmitRequest, LimitReset } from "@gw/proto/billing/v1/billing";
import { describeWith } from "@gw/testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createBillingTestDatabase, type TestDatabase } from "../test/database.js";
import { Admission, type AdmissionSettings } from "./admission.js";

const NOW = Date.UTC(2026, 2, 11, 12, 0, 0);
const KEY = "k".repeat(64);

/** The memory store, with its admit answer replaceable and its loads counted. */
class ScriptedStore extends MemoryAdmissionStore {
  answer: ((request: StoreAdmitRequest) => Promise<AdmitResult>) | undefined;
  readonly admits: StoreAdmitRequest[] = [];
  readonly loads: string[] = [];
  readonly keyLoads: KeySpendSnapshot[] = [];

  constructor() {
    super({ clock: () => NOW });
  }

  override admit(request: StoreAdmitRequest): Promise<AdmitResult> {
    this.admits.push(request);
    return this.answer ? this.answer(request) : super.admit(request);
  }

  override load(accountId: string, snapshot: LedgerSnapshot, now?: number) {
    this.loads.push(accountId);
    return super.load(accountId, snapshot, now);
  }

  override loadKey(accountId: string, snapshot: KeySpendSnapshot) {
    this.keyLoads.push(snapshot);
    return super.loadKey(accountId, snapshot);
  }
}

function admitRequest(overrides: Partial<AdmitRequest> = {}): AdmitRequest {
  return {
    holdId: `gen-${randomUUID()}`,
    accountId: `acct_${randomUUID()}`,
    keyHash: KEY,
    modelId: "openai/gpt-4o",
    isFreeModel: false,
    worstCaseCostPico: 0n,
    ...overrides,
  };
}

/** Expects `promise` to reject with a GatewayError of `kind` and `code`, and returns that error. */
async function gatewayError(promise: Promise<unknown>, kind: string, code: string): Promise<GatewayError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(GatewayError);
  expect(error).toMatchObject({ kind, code });
  return error as GatewayError;
}

describeWith(["postgres"], "Admission (billing's Admit over a store and the ledger)", () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createBillingTestDatabase();
  });

  afterAll(async () => {
    await db.drop();
  });

  function setup(settings: Partial<AdmissionSettings> = {}) {
    const store = new ScriptedStore();
    const { logger, lines } = memoryLogger();
    const admission = new Admission({
      store,
      db: db.database.db,
      logger,
      settings: { holdTtlMs: 60_000, failOpen: false, paidRequestsPerMinute: 0, ...settings },
      clock: () => NOW,
    });
    const logged = () => lines().map((line) => JSON.parse(line) as Record<string, unknown>);
    return { store, admission, logged };
  }

  it.each([
    [{ accountId: "" }, "account_id is required"],
    [{ holdId: "" }, "hold_id is required"],
    [{ worstCaseCostPico: -1n }, "worst_case_cost_pico must not be negative"],
  ])(
    "refuses a malformed request (%o) as invalid_request before the store is asked",
    async (fields, message) => {
      // Fail-open would admit anything the store cannot answer: the check must come first.
      const { store, admission } = setup({ failOpen: true });
      const error = await gatewayError(
        admission.admit(admitRequest(fields)),
        "invalid_request",
        "invalid_request",
      );
      expect(error.message).toBe(message);
      expect(store.admits).toHaveLength(0);
    },
  );

  it("passes a GatewayError from the store through unchanged, even when failing open", async () => {
    const { store, admission } = setup({ failOpen: true });
    const refused = new GatewayError("rate_limit", "slow down");
    store.answer = () => Promise.reject(refused);
    await expect(admission.admit(admitRequest())).rejects.toBe(refused);
  });

  it("answers the store's input refusal as invalid_request with its message, even when failing open", async () => {
    const { store, admission } = setup({ failOpen: true });
    store.answer = () => Promise.reject(new AdmissionInputError("ttl must be positive"));
    const error = await gatewayError(admission.admit(admitRequest()), "invalid_request", "invalid_request");
    expect(error.message).toBe("ttl must be positive");
  });

  it("gives up after 5 loads of a view that stays cold: 503 dependency_unavailable, logged", async () => {
    const { store, admission, logged } = setup();
    store.answer = async () => ({ status: "cold" });
    const request = admitRequest();
    const error = await gatewayError(
      admission.admit(request),
      "service_unavailable",
      "dependency_unavailable",
    );
    expect(error.message).toBe("admission is unavailable");
    expect((error.cause as Error).message).toBe(
      `admission view of ${request.accountId} stayed cold after 5 loads`,
    );
    expect(store.admits).toHaveLength(5);
    expect(store.loads).toEqual(Array(5).fill(request.accountId));
    expect(logged()).toContainEqual(
      expect.objectContaining({
        level: 50,
        msg: "admission store unavailable",
        accountId: request.accountId,
      }),
    );
  });

  it("fails open without a hold when configured, and says so in a warning", async () => {
    const { store, admission, logged } = setup({ failOpen: true });
    store.answer = () => Promise.reject(new Error("connection is closed"));
    const request = admitRequest();
    expect(await admission.admit(request)).toEqual({
      admitted: true,
      refusal: undefined,
      holdExpiresUnixMs: 0n,
    });
    expect(logged()).toContainEqual(
      expect.objectContaining({
        level: 40,
        msg: "admission store unavailable: admitting without a hold (ADMISSION_FAIL_OPEN)",
        accountId: request.accountId,
        holdId: request.holdId,
      }),
    );
  });

  it("does not load a key window for a request without a key limit (a cold_key answer stays unanswered)", async () => {
    const { store, admission } = setup();
    store.answer = async () => ({ status: "cold_key" });
    await gatewayError(admission.admit(admitRequest()), "service_unavailable", "dependency_unavailable");
    expect(store.admits).toHaveLength(5);
    expect(store.keyLoads).toHaveLength(0);
  });

  it("loads a cold view once for concurrent requests of one account, and again once it is dropped", async () => {
    const { store, admission } = setup();
    const accountId = `acct_${randomUUID()}`;
    const answers = await Promise.all([
      admission.admit(admitRequest({ accountId })),
      admission.admit(admitRequest({ accountId })),
    ]);
    expect(answers.map((answer) => answer.admitted)).toEqual([true, true]);
    expect(store.loads).toEqual([accountId]);
    await store.invalidate(accountId);
    expect((await admission.admit(admitRequest({ accountId }))).admitted).toBe(true);
    expect(store.loads).toEqual([accountId, accountId]);
  });

  it("loads a cold key window, then admits; concurrent loads of two keys load both", async () => {
    const { store, admission } = setup();
    const accountId = `acct_${randomUUID()}`;
    const keyLimit = { limitPico: 10n, reset: LimitReset.LIMIT_RESET_DAILY, includeByok: false };
    expect((await admission.admit(admitRequest({ accountId, keyLimit }))).admitted).toBe(true);
    expect(store.keyLoads.map((load) => load.keyHash)).toEqual([KEY]);

    const other = "o".repeat(64);
    await Promise.all([
      admission.reloadKey(accountId, { keyHash: "a".repeat(64), limitPico: 1n, windowStartMs: 0 }),
      admission.reloadKey(accountId, { keyHash: other, limitPico: 1n, windowStartMs: 0 }),
    ]);
    // The two loads run concurrently, each after its own ledger read, so they may land in either order.
    const reloaded = store.keyLoads.slice(1);
    expect(reloaded.map((load) => load.keyHash).sort()).toEqual(["a".repeat(64), other]);
    // A key limit that does not say counts only the account's own spend, not its BYOK costs.
    expect(reloaded.find((load) => load.keyHash === other)).toMatchObject({
      windowStartMs: 0,
      includeByok: false,
    });
  });
});
