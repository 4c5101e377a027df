import { describeWith } from "@gw/testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type GenerationsHarness, startGenerationsHarness } from "../test/harness.js";

// `generation?id=%00` reached PostgreSQL and was a 500 (issue 16); a bad escape is refused before the route.
describeWith(["postgres"], "generations app: hostile input on the lookup route", () => {
  let harness: GenerationsHarness;
  let key: string;

  beforeAll(async () => {
    harness = await startGenerationsHarness();
    key = harness.keys.issue("acct_hostile");
  });

  afterAll(async () => {
    await harness?.close();
  });

  it.each(["id=%00", "id=%ff", "id=gen-%00x", "id=%e0%80", "id=a&b=%zz"])(
    "GET /api/v1/generation?%s is a 400",
    async (query) => {
      const answer = await harness.get(`/api/v1/generation?${query}`, key);
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({
        error: { type: "invalid_request_error", metadata: { reason: "malformed_url" } },
      });
    },
  );

  it("an id of control-free junk is a 404, not a 5xx", async () => {
    for (const id of ["%E2%80%AE", "x".repeat(5_000), "%27%3B--", "..%2F..%2Fetc"]) {
      const answer = await harness.get(`/api/v1/generation?id=${id}`, key);
      expect(answer.status, id.slice(0, 20)).toBeLessThan(500);
      expect(answer.body).toHaveProperty("error");
    }
  });
});
