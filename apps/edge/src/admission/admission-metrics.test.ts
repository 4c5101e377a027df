import { silentLogger } from "@gw/logger";
import { registry } from "@gw/metrics";
import { RefusalCode } from "@gw/proto/billing/v1/billing";
import { describe, expect, it } from "vitest";
import { RecordingBilling, refusal } from "../test/billing.js";
import { testKey } from "../test/principals.js";
import { Admission } from "./admission.js";

// Admission's decisions as series: admitted, 402 by reason, 429 by the limit hit, 503 fail-closed.

async function outcome(outcomeLabel: string, reason: string): Promise<number> {
  const metric = await registry.getSingleMetric("gw_admission_outcomes_total")?.get();
  const sample = metric?.values.find(
    (entry) => entry.labels.outcome === outcomeLabel && entry.labels.reason === reason,
  );
  return sample?.value ?? 0;
}

function decide(billing: RecordingBilling): Promise<unknown> {
  const admission = new Admission({ billing, logger: silentLogger(), now: Date.now, leases: false });
  return admission
    .admit({
      generationId: `gen-${Math.random()}`,
      principal: testKey("acct-metrics").principal,
      modelId: "openai/gpt-4o-mini",
      isFreeModel: false,
      worstCasePico: 1_000n,
    })
    .catch(() => undefined);
}

describe("admission metrics", () => {
  it("counts each decision by outcome and reason", async () => {
    const cases: Array<[RecordingBilling, string, string]> = [];
    const admitted = new RecordingBilling();
    cases.push([admitted, "admitted", "admit"]);
    const broke = new RecordingBilling();
    broke.refusal = refusal(RefusalCode.REFUSAL_CODE_INSUFFICIENT_CREDITS, { limitSource: "account" });
    cases.push([broke, "payment_required", "insufficient_credits"]);
    const limited = new RecordingBilling();
    limited.refusal = refusal(RefusalCode.REFUSAL_CODE_RATE_LIMITED, {
      limitSource: "free_per_minute",
      retryAfterSeconds: 1,
    });
    cases.push([limited, "rate_limited", "free_per_minute"]);
    const down = new RecordingBilling();
    down.unavailable = true;
    cases.push([down, "unavailable", "dependency_unavailable"]);

    for (const [billing, outcomeLabel, reason] of cases) {
      const before = await outcome(outcomeLabel, reason);
      await decide(billing);
      expect(await outcome(outcomeLabel, reason), `${outcomeLabel}/${reason}`).toBe(before + 1);
    }
  });
});
