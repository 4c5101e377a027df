import { describe, expect, it } from "vitest";
import { FreshnessProbe } from "./freshness.js";

describe("freshness: answer to row readable", () => {
  it("samples every n-th answer and times it to the lookup that found it", async () => {
    let clock = 0;
    const readable = new Set<string>();
    const lookups: string[][] = [];
    const probe = new FreshnessProbe(
      async (ids) => {
        lookups.push(ids);
        return new Set(ids.filter((id) => readable.has(id)));
      },
      2,
      25,
      () => clock,
    );
    for (const [index, id] of ["a", "b", "c", "d"].entries()) probe.answered(id, index * 10);
    // a (t=0) and c (t=20) are sampled; b and d are not.
    readable.add("a");
    clock = 100;
    await probe.poll();
    readable.add("c");
    clock = 400;
    await probe.poll();
    expect(lookups).toEqual([["a", "c"], ["c"]]);
    const result = probe.result();
    expect(result).toMatchObject({ samples: 2, unresolved: 0, queries: 2 });
    expect([result.p50, result.p99]).toEqual([100, 380]);
  });

  it("sends no lookup with nothing pending, and reports what never became readable", async () => {
    let clock = 0;
    const probe = new FreshnessProbe(
      async () => new Set(),
      1,
      5,
      () => clock,
    );
    await probe.poll();
    expect(probe.result().queries).toBe(0);
    probe.answered("x", 0);
    clock = 1;
    const result = await probe.finish(0);
    expect(result).toMatchObject({ samples: 1, unresolved: 1 });
    expect(result.p50).toBeNaN();
  });
});
