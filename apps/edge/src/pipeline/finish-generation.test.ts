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
import { DEFAULT_SETTINGS } from "./edge-context.js";
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
  usage: {
    promptTokens: 10,
    completionTokens: 5,
    cachedTokens: 2,
    cacheWriteTokens: 1,
    reasoningTokens: 3,
    audioTokens: 4,
    imageTokens: 2,
    documentTokens: 1,
    completionAudioTokens: 1,
  },
  estimated: false,
  cost: {
    promptPico: 100n,
    completionPico: 200n,
    requestPico: 7n,
    totalPico: 307n,
    cacheDiscountPico: -4n,
    audioPico: 40n,
    imagePico: 30n,
  },
  isByok: false,
  startedAt: Date.parse("2026-05-01T10:00:00.000Z"),
  generationStartedAt: Date.parse("2026-05-01T10:00:00.250Z"),
  endedAt: Date.parse("2026-05-01T10:00:01.000Z"),
  attempts: [
    {
      provider: "azure",
      model: "openai/gpt-4o-mini",
      status: 503,
      latencyMs: 40,
      isByok: false,
      fault: "provider",
    },
    { provider: "openai", model: "openai/gpt-4o-mini", status: 200, latencyMs: 700, isByok: false },
  ],
  served: true,
  ...overrides,
});

async function setup(byokFeePercent = 0) {
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
  const settings = { ...DEFAULT_SETTINGS, byokFeePercent };
  const meter = new Meter({ bus, usageTopic: "usage", logger: silentLogger(), charge: settings });
  // What every surface's end of a request does: admission ends the hold, the meter publishes the event.
  const finish = {
    record: (record: Generation, hold: Hold) => finishRecord({ admission, meter, settings }, record, hold),
  };
  return { bus, billing, received, meter: finish, leases, admission };
}

const hold = { holdId: "gen-00000000000000000000000001", accountId: "acct-1", keyHash: "a".repeat(64) };

describe("finishing a generation (admission ends the hold, the meter publishes)", () => {
  it("settles the hold to the exact cost and publishes one usage event with every field", async () => {
    const { billing, received, meter, admission } = await setup();
    meter.record(generation(), hold);
    await admission.drain();
    await expect.poll(() => received.length).toBe(1);
    expect(billing.settles).toEqual([{ ...hold, actualCostPico: 307n }]);
    expect(billing.releases).toEqual([]);
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
      // The per-request price (7) is part of the prompt's: prompt + completion = the upstream total.
      upstreamPromptCostPico: 107n,
      upstreamCompletionCostPico: 200n,
      // The failed attempt names whose fault it was (endpoint health counts provider faults only).
      attempts: [
        {
          provider: "azure",
          model: "openai/gpt-4o-mini",
          status: 503,
          latencyMs: 40,
          isByok: false,
          fault: "provider",
        },
        {
          provider: "openai",
          model: "openai/gpt-4o-mini",
          status: 200,
          latencyMs: 700,
          isByok: false,
          fault: "",
        },
      ],
      leaseId: "",
      // No HTTP-Referer / X-Title on this request: the attribution fields go out empty.
      httpReferer: "",
      appTitle: "",
      // The 2 cached and 1 written tokens' saving, as computeCost gave it (the record shows it as cache_discount).
      cacheDiscountPico: -4n,
      // No `user`, no User-Agent, and it did not fail: those fields go out empty.
      externalUser: "",
      userAgent: "",
      errorStatus: 0,
      errorReason: "",
      errorMessage: "",
      // The media the provider reported, and their part of the prompt cost.
      audioTokens: 4,
      imageTokens: 2,
      documentTokens: 1,
      completionAudioTokens: 1,
      audioCostPico: 40n,
      imageCostPico: 30n,
      // No web plugin: no search engine, no searches.
      webSearchEngine: "",
      numSearchResults: 0,
      webSearchCostPico: 0n,
    });
  });

  it("publishes the request's user, its User-Agent and a failure's error as the client was told it", async () => {
    const { received, meter, admission } = await setup();
    meter.record(
      generation({
        served: false,
        finishReason: "error",
        attribution: { httpReferer: "", appTitle: "", userAgent: "OpenAI/JS 6.1.0" },
        externalUser: "user-42",
        error: { status: 502, reason: "upstream_error", message: "no provider could serve the request" },
      }),
      hold,
    );
    await admission.drain();
    await expect.poll(() => received.length).toBe(1);
    expect(decodePayload(USAGE_RECORDED_V1, decodeEnvelope(received[0]!.value))).toMatchObject({
      finishReason: "error",
      externalUser: "user-42",
      userAgent: "OpenAI/JS 6.1.0",
      errorStatus: 502,
      errorReason: "upstream_error",
      errorMessage: "no provider could serve the request",
    });
  });

  it("settles a BYOK request at the fee only and publishes the fee as cost, the whole price upstream", async () => {
    const { billing, received, meter, admission } = await setup(10);
    meter.record(
      generation({
        isByok: true,
        cost: { promptPico: 1_000n, completionPico: 2_000n, requestPico: 0n, totalPico: 3_000n },
      }),
      hold,
    );
    await admission.drain();
    await expect.poll(() => received.length).toBe(1);
    expect(billing.settles).toEqual([{ ...hold, actualCostPico: 300n }]);
    const event = decodePayload(USAGE_RECORDED_V1, decodeEnvelope(received[0]!.value));
    expect(event).toMatchObject({
      isByok: true,
      costPico: 300n,
      upstreamPromptCostPico: 1_000n,
      upstreamCompletionCostPico: 2_000n,
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
    await expect.poll(() => received.length).toBe(1);
    expect(settleCalls).toBe(1);
    expect(billing.releases).toHaveLength(1);
  });

  it("finishes a leased request locally: no Settle call, and the event names the lease", async () => {
    const { billing, received, meter, leases, admission } = await setup();
    const leased = await leases.reserve(testKey("acct-1").principal, 1_000n);
    if (!leased) throw new Error("expected a leased hold");
    meter.record(generation(), leased);
    await admission.drain();
    await expect.poll(() => received.length).toBe(1);
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
