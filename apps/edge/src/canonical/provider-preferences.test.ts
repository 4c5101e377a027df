import { GatewayError } from "@gw/errors";
import { describe, expect, it } from "vitest";
import { parseChatRequest } from "./chat-request.js";

// provider.* as OpenRouter documents it: sort as a string or {by, partition}; preferred_min_throughput
// (tokens/s) and preferred_max_latency (s) as a number (p50) or percentile cutoffs. Anything else is a
// 400 naming the field, never ignored.

const body = (provider: unknown) => ({ model: "m/x", messages: [{ role: "user", content: "hi" }], provider });

function refusal(provider: unknown): { status: number; message: string } {
  try {
    parseChatRequest(body(provider));
  } catch (error) {
    if (error instanceof GatewayError) return { status: error.status, message: error.message };
    throw error;
  }
  throw new Error("accepted");
}

describe("provider routing preferences", () => {
  it("accepts the documented forms", () => {
    for (const provider of [
      { sort: "latency" },
      { sort: { by: "throughput" } },
      { sort: { by: "price", partition: "none" } },
      { preferred_min_throughput: 50 },
      { preferred_min_throughput: { p50: 40, p90: 10 } },
      { preferred_max_latency: 1.5 },
      { preferred_max_latency: { p75: 2, p99: 8 } },
      { data_collection: "deny" },
    ]) {
      expect(parseChatRequest(body(provider)).provider).toEqual(provider);
    }
  });

  it.each([
    ["an unknown sort", { sort: "fastest" }, "provider.sort"],
    ["an unknown sort.by", { sort: { by: "uptime" } }, "provider.sort"],
    ["an unknown partition", { sort: { by: "price", partition: "all" } }, "provider.sort"],
    ["sort object without by", { sort: { partition: "none" } }, "provider.sort"],
    ["a negative throughput", { preferred_min_throughput: -1 }, "provider.preferred_min_throughput"],
    ["an unknown percentile", { preferred_max_latency: { p42: 1 } }, "provider.preferred_max_latency"],
    ["a string latency", { preferred_max_latency: "fast" }, "provider.preferred_max_latency"],
    ["an unknown field", { preferred_speed: 1 }, "provider"],
  ])("refuses %s with a 400 naming the field", (_name, provider, field) => {
    const { status, message } = refusal(provider);
    expect(status).toBe(400);
    expect(message).toContain(field);
  });
});
