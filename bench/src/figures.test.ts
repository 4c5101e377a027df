import { describe, expect, it } from "vitest";
import {
  edgeMsPerRequest,
  edgeUsPerFrame,
  edgeUsPerPromptKb,
  heapKbPerStream,
  meteringMsPerRequest,
  treesMsPerRequest,
} from "./figures.js";

const row = (figures: Record<string, number>) => ({
  cpu: Object.fromEntries(Object.entries(figures).map(([name, msPerRequest]) => [name, { msPerRequest }])),
});

describe("edge and metering CPU per request", () => {
  it("takes the edge process's own figure, none without an edge", () => {
    expect(edgeMsPerRequest(row({ edge: 0.2, billing: 0.1 }))).toBe(0.2);
    expect(edgeMsPerRequest(row({ standalone: 0.5 }))).toBeUndefined();
  });

  it("sums Kafka, PostgreSQL, Redis, billing, generations and keys, and nothing else", () => {
    const split = row({
      edge: 0.3,
      kafka: 0.07,
      postgresql: 0.17,
      redis: 0.04,
      billing: 0.07,
      generations: 0.06,
      keys: 0.06,
    });
    expect(meteringMsPerRequest(split)).toBeCloseTo(0.47, 10);
  });

  it("is undefined, not 0, when none of the trees was counted", () => {
    expect(meteringMsPerRequest(row({ portkey: 0.5 }))).toBeUndefined();
    expect(treesMsPerRequest(row({ billing: 0.1 }), ["billing", "generations"])).toBe(0.1);
  });
});

describe("edge CPU per relayed frame", () => {
  it("spreads what a stream costs beyond a plain request over its frames", () => {
    // 0.65 ms per 24-frame stream, 0.374 ms per request: 11.5 µs per frame.
    expect(edgeUsPerFrame(0.65, 0.374, 24)).toBeCloseTo(11.5, 10);
  });

  it("needs both figures and frames", () => {
    expect(edgeUsPerFrame(undefined, 0.3, 24)).toBeUndefined();
    expect(edgeUsPerFrame(0.6, undefined, 24)).toBeUndefined();
    expect(edgeUsPerFrame(0.6, 0.3, 0)).toBeUndefined();
  });
});

describe("edge CPU per KB of prompt", () => {
  it("is the extra CPU over the tiny prompt per extra KB", () => {
    // 64 KB: 0.55 ms, tiny 0.15 KB: 0.35 ms → 200 µs over 63.85 KB.
    expect(edgeUsPerPromptKb(0.55, 0.35, 64, 0.15)).toBeCloseTo(200 / 63.85, 10);
  });

  it("needs a larger prompt than the baseline's", () => {
    expect(edgeUsPerPromptKb(0.5, 0.4, 0.15, 0.15)).toBeUndefined();
    expect(edgeUsPerPromptKb(undefined, 0.4, 8, 0.15)).toBeUndefined();
  });
});

describe("live heap per open stream", () => {
  it("is the heap growth over the open streams, in KB", () => {
    expect(heapKbPerStream(50 * 2 ** 20, 50 * 2 ** 20 + 5000 * 12 * 1024, 5000)).toBe(12);
    expect(heapKbPerStream(1, 2, 0)).toBeUndefined();
  });
});
