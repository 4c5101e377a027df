import type { Envelope } from "@gw/events";
import { catalogueCost } from "@gw/events/testing";
import { describe, expect, it } from "vitest";
import type { AttemptRecord } from "../db/schema.js";
import { usageEvent } from "../test/usage-events.js";
import { type GenerationRow, rowFromUsage, usageFromRow } from "./usage-row.js";
import { generationJson } from "./view.js";

function envelopeFor(id: string, accountId: string): Envelope {
  return { eventId: id, eventType: "usage.recorded", eventVersion: 1, accountId, payload: Buffer.alloc(0) };
}

/** What Postgres hands back for an inserted row: jsonb parsed, defaults filled. */
function asStored(insert: ReturnType<typeof rowFromUsage>): GenerationRow {
  return {
    ...insert,
    created_at: insert.created_at as Date,
    attempts: JSON.parse(insert.attempts) as AttemptRecord[],
    ingested_at: new Date(),
  } as GenerationRow;
}

describe("usage event ↔ generation row", () => {
  it("keys the row by the envelope's event id and round-trips every field", () => {
    const usage = usageEvent();
    const row = rowFromUsage(envelopeFor(usage.generationId, usage.accountId), usage);
    expect(row.id).toBe(usage.generationId);
    expect(usageFromRow(asStored(row))).toEqual(usage);
  });

  it("sums the upstream prompt and completion costs exactly", () => {
    const usage = usageEvent({ cost: catalogueCost(1n, 2n) });
    const row = rowFromUsage(envelopeFor(usage.generationId, usage.accountId), usage);
    expect(row.upstream_inference_cost).toBe("0.000000000003");
  });

  it("falls back to the envelope's account and time when the payload leaves them unset", () => {
    // A payload from an older producer that set neither (today's encoder always sets both).
    const usage = { ...usageEvent(), accountId: "", createdAt: undefined };
    const occurredAt = new Date("2026-11-22T10:00:00Z");
    const row = rowFromUsage({ ...envelopeFor(usage.generationId, "acct_env"), occurredAt }, usage);
    expect(row.account_id).toBe("acct_env");
    expect(row.created_at).toEqual(occurredAt);
  });

  it("keeps the media the provider reported and their cost, and shows them in the record", () => {
    const base = usageEvent();
    const usage = {
      ...base,
      audioTokens: 10,
      imageTokens: 258,
      documentTokens: 516,
      completionAudioTokens: 3,
      audioCostPico: 400_000_000n,
      imageCostPico: 1_000_000_000n,
    };
    const stored = asStored(rowFromUsage(envelopeFor(usage.generationId, usage.accountId), usage));
    expect(usageFromRow(stored)).toEqual(usage);
    const shown = generationJson(stored).usage;
    expect(shown.prompt_tokens_details).toMatchObject({
      audio_tokens: 10,
      image_tokens: 258,
      document_tokens: 516,
    });
    expect(shown.completion_tokens_details).toMatchObject({ audio_tokens: 3 });
    expect(shown.cost_details).toMatchObject({
      upstream_inference_audio_cost: 0.0004,
      upstream_inference_image_cost: 0.001,
    });
    // Without media, no media fields (the record's shape is as before).
    const plain = generationJson(
      asStored(rowFromUsage(envelopeFor(base.generationId, base.accountId), base)),
    );
    expect(plain.usage.prompt_tokens_details).not.toHaveProperty("audio_tokens");
    expect(plain.usage.cost_details).not.toHaveProperty("upstream_inference_audio_cost");
  });

  it("keeps what the web plugin's searches cost and shows it in cost_details (issue 32)", () => {
    const base = usageEvent({ webSearch: { engine: "native", count: 2 } });
    const usage = { ...base, webSearchCostPico: 20_000_000_000n };
    const stored = asStored(rowFromUsage(envelopeFor(usage.generationId, usage.accountId), usage));
    expect(usageFromRow(stored)).toEqual(usage);
    expect(generationJson(stored).usage.cost_details.upstream_inference_web_search_cost).toBe(0.02);
    const plain = generationJson(
      asStored(rowFromUsage(envelopeFor(base.generationId, base.accountId), usageEvent())),
    );
    expect(plain.usage.cost_details).not.toHaveProperty("upstream_inference_web_search_cost");
  });
});
