import {
  type ConsumedMessage,
  decodeEnvelope,
  decodePayload,
  InProcessEventBus,
  USAGE_RECORDED_V1,
} from "@gw/events";
import { silentLogger } from "@gw/logger";
import { describe, expect, it } from "vitest";
import { Admission } from "../admission/admission.js";
import type { Hold } from "../admission/admit.js";
import type { Generation } from "../canonical/generation.js";
import { RecordingBilling } from "../test/billing.js";
import { testKey } from "../test/principals.js";
import { Meter } from "../usage/meter.js";
import { finishRecord } from "./finish-generation.js";

const generation = (overrides: Partial<Generation> = {}): Generation => ({
  generationId: "gen-00000000000000000000000001",
  accountId: "acct-1",
  keyHash: "a".repeat(64),
  apiType: "chat",
  streamed: true,
  cancelled: false,
  model: "openai/gpt-4o-mini",
  provider: "openai",
  upstreamId: "chatcmpl-9",
  finishReason: "stop",
  nativeFinishReason: "stop",
  usage: { promptTokens: 10, completionTokens: 5, cachedTokens: 2, cacheWriteTokens: 1, reasoningTokens: 3 },
  estimated: false,
  cost: { promptPico: 100n, completionPico: 200n, requestPico: 7n, totalPico: 307n },
  isByok: false,
  startedAt: Date.parse("2026-05-01T10:00:00.000Z"),
  generationStartedAt: Date.parse("2026-05-01T10:00:00.250Z"),
  endedAt: Date.parse("2026-05-01T10:00:01.000Z"),
  attempts: [
    { provider: "azure", model: "openai/gpt-4o-mini", status: 503, latencyMs: 40, isByok: false },
    { provider: "openai", model: "openai/gpt-4o-mini", status: 200, latencyMs: 700, isByok: false },
  ],
  served: true,
  ...overrides,
});

async function setup() {
  const bus = new InProcessEventBus();
  const billing = new RecordingBilling();
  billing.leaseGrantPico = 1_000_000n;
  const admission = new Admission({ billing, logger: silentLogger(), now: Date.now, leases: true });
  const { leases } = admission;
  const received: ConsumedMessage[] = [];
  await bus.subscribe({
    topic: "usage",
    groupId: "test",
    handler: async (message) => void received.push(message),
  });
  const meter = new Meter({ bus, usageTopic: "usage", logger: silentLogger() });
  // What every surface's end of a request does: admission ends the hold, the meter publishes the event.
  const finish = {
    record: (record: Generation, hold: Hold) => finishRecord({ admission, meter }, record, hold),
  };
  return { bus, billing, received, meter: finish, leases, admission };
}

const hold = { holdId: "gen-00000000000000000000000001", accountId: "acct-1", keyHash: "a".repeat(64) };

describe("finishing a generation (admission ends the hold, the meter publishes)", () => {
  it("settles the hold to the exact cost and publishes one usage event with every field", async () => {
    const { billing, received, meter, admission } = await setup();
    meter.record(generation(), hold);
    await admission.drain();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(billing.settles).toEqual([{ ...hold, actualCostPico: 307n }]);
    expect(billing.releases).toEqual([]);
    expect(received).toHaveLength(1);
    const message = received[0]!;
    expect(message.key).toBe("acct-1");
    const envelope = decodeEnvelope(message.value);
    expect(envelope.eventId).toBe("gen-00000000000000000000000001");
    expect(decodePayload(USAGE_RECORDED_V1, envelope)).toEqual({
      generationId: "gen-00000000000000000000000001",
      accountId: "acct-1",
      keyHash: "a".repeat(64),
      model: "openai/gpt-4o-mini",
      provider: "openai",
      apiType: "chat",
      streamed: true,
      cancelled: false,
      finishReason: "stop",
      nativeFinishReason: "stop",
      upstreamId: "chatcmpl-9",
      createdAt: new Date("2026-05-01T10:00:00.000Z"),
      latencyMs: 1_000,
      generationTimeMs: 750,
      isByok: false,
      estimated: false,
      promptTokens: 10,
      completionTokens: 5,
      totalTokens: 15,
      cachedTokens: 2,
      cacheWriteTokens: 1,
      reasoningTokens: 3,
      costPico: 307n,
      upstreamPromptCostPico: 100n,
      upstreamCompletionCostPico: 200n,
      attempts: [
        { provider: "azure", model: "openai/gpt-4o-mini", status: 503, latencyMs: 40, isByok: false },
        { provider: "openai", model: "openai/gpt-4o-mini", status: 200, latencyMs: 700, isByok: false },
      ],
      leaseId: "",
    });
  });

  it("releases the hold of a request no provider served", async () => {
    const { billing, meter, admission } = await setup();
    meter.record(
      generation({
        served: false,
        cost: { promptPico: 0n, completionPico: 0n, requestPico: 0n, totalPico: 0n },
      }),
      hold,
    );
    await admission.drain();
    expect(billing.settles).toEqual([]);
    expect(billing.releases).toEqual([{ holdId: hold.holdId, accountId: "acct-1" }]);
  });

  it("releases when settling fails, and still publishes the event billing reconciles from", async () => {
    const { billing, received, meter, admission } = await setup();
    let settleCalls = 0;
    billing.settle = async () => {
      settleCalls++;
      throw new Error("deadline exceeded");
    };
    meter.record(generation(), hold);
    await admission.drain();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(settleCalls).toBe(1);
    expect(billing.releases).toHaveLength(1);
    expect(received).toHaveLength(1);
  });

  it("finishes a leased request locally: no Settle call, and the event names the lease", async () => {
    const { billing, received, meter, leases, admission } = await setup();
    const leased = await leases.reserve(testKey("acct-1").principal, 1_000n);
    if (!leased) throw new Error("expected a leased hold");
    meter.record(generation(), leased);
    await admission.drain();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(billing.settles).toEqual([]);
    expect(billing.releases).toEqual([]);
    expect(leased.lease.spentPico).toBe(307n);
    expect(leased.lease.inFlight).toBe(0);
    const payload = decodePayload(USAGE_RECORDED_V1, decodeEnvelope(received[0]!.value));
    expect(payload?.leaseId).toBe(leased.lease.id);
    await leases.close();
    expect(billing.leaseReturns).toEqual([
      { leaseId: leased.lease.id, accountId: "acct-1", spentPico: 307n },
    ]);
  });
});
