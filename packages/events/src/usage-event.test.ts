import { describe, expect, it } from "vitest";
import { usageRecorded } from "./usage-event.js";
import { catalogueCost, exampleUsageFacts } from "./usage-facts.js";

const price = catalogueCost(300_000n, 700_000n, 50_000n);

describe("usageRecorded", () => {
  it("carries the charge as cost_pico and the provider's whole price as the upstream costs", () => {
    const event = usageRecorded(exampleUsageFacts({ isByok: true, cost: price }), { byokFeePercent: 10 });
    expect(event.isByok).toBe(true);
    expect(event.costPico).toBe(105_000n);
    // The per-request price is part of the prompt cost: prompt + completion is the upstream total.
    expect(event.upstreamPromptCostPico).toBe(350_000n);
    expect(event.upstreamCompletionCostPico).toBe(700_000n);
  });

  it("reports the same price as charge and upstream cost without BYOK", () => {
    const event = usageRecorded(exampleUsageFacts({ cost: price }), { byokFeePercent: 10 }, "lease-1");
    expect(event.costPico).toBe(1_050_000n);
    expect(event.upstreamPromptCostPico + event.upstreamCompletionCostPico).toBe(1_050_000n);
    expect(event.leaseId).toBe("lease-1");
  });

  it("measures latency and generation time from the facts' timestamps", () => {
    const facts = exampleUsageFacts({ startedAt: 1_000, generationStartedAt: 1_240, endedAt: 1_850 });
    const event = usageRecorded(facts, { byokFeePercent: 0 });
    expect(event).toMatchObject({ latencyMs: 850, generationTimeMs: 610, totalTokens: 31 });
    expect(event.createdAt).toEqual(new Date(1_000));
    expect(usageRecorded({ ...facts, generationStartedAt: undefined }, { byokFeePercent: 0 })).toMatchObject({
      generationTimeMs: 0,
    });
  });
});
