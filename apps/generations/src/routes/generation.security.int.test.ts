import { GenerationServiceClient } from "@gw/proto/generations/v1/generations";
import { insecureCredentials, unaryCall } from "@gw/rpc";
import { describeWith } from "@gw/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, type GenerationsHarness, startGenerationsHarness } from "../test/harness.js";
import { publishUsage, usageEvent } from "../test/usage-events.js";

describeWith(["postgres"], "generation tenancy", () => {
  // Tenancy of generation records: only the owning account can read one; to anyone else it does not exist.

  let harness: GenerationsHarness;
  let aliceKey: string;
  let bobKey: string;
  const aliceOld = usageEvent({ accountId: "acct_alice", createdAt: new Date(Date.now() - 3_600_000) });
  const aliceRecent = usageEvent({ accountId: "acct_alice" });

  beforeAll(async () => {
    harness = await startGenerationsHarness();
    aliceKey = harness.keys.issue("acct_alice");
    bobKey = harness.keys.issue("acct_bob");
    // An id minted an hour ago: outside the pending window, so "unknown" and "foreign" must look alike.
    aliceOld.generationId = `gen-${(Date.now() - 3_600_000).toString(36).padStart(9, "0")}${"ab".repeat(8)}`;
    for (const usage of [aliceOld, aliceRecent]) publishUsage(harness.bus, harness.topics.usage, usage);
    await eventually(async () => {
      const rows = await harness.database.db.selectFrom("generations").select("id").execute();
      return rows.length === 2;
    });
  });

  afterAll(async () => {
    await harness?.close();
  });

  describe("another account", () => {
    it("gets the same 404 for alice's generation as for one that never existed", async () => {
      const own = await harness.get(`/api/v1/generation?id=${aliceOld.generationId}`, aliceKey);
      expect(own.status).toBe(200);
      const foreign = await harness.get(`/api/v1/generation?id=${aliceOld.generationId}`, bobKey);
      const unknownId = `gen-${(Date.now() - 3_600_000).toString(36).padStart(9, "0")}${"cd".repeat(8)}`;
      const unknown = await harness.get(`/api/v1/generation?id=${unknownId}`, bobKey);
      expect(foreign.status).toBe(404);
      expect(foreign.body).toEqual(unknown.body);
      expect(JSON.stringify(foreign.body)).not.toContain("acct_alice");
    });

    it("cannot tell a recent generation of alice's from a recent id that does not exist", async () => {
      const foreign = await harness.get(`/api/v1/generation?id=${aliceRecent.generationId}`, bobKey);
      const unknown = await harness.get(`/api/v1/generation?id=${usageEvent().generationId}`, bobKey);
      expect(foreign.status).toBe(404);
      expect(foreign.body).toEqual(unknown.body);
      expect(foreign.headers.get("retry-after")).toBe(unknown.headers.get("retry-after"));
    });

    it("gets not_found from GenerationService.Get", async () => {
      const client = new GenerationServiceClient(harness.running.grpcAddress, insecureCredentials());
      try {
        const get = unaryCall(client, client.get);
        const foreign = await get({ id: aliceOld.generationId, accountId: "acct_bob" });
        expect(foreign.result).toEqual({ $case: "notFound", value: true });
        const own = await get({ id: aliceOld.generationId, accountId: "acct_alice" });
        expect(own.result?.$case).toBe("generation");
      } finally {
        client.close();
      }
    });
  });

  describe("credentials", () => {
    it("refuses a request without a key or with an unknown key", async () => {
      const missing = await harness.get(`/api/v1/generation?id=${aliceOld.generationId}`);
      expect(missing.status).toBe(401);
      expect(missing.body.error).toMatchObject({ type: "authentication_error" });
      const unknown = await harness.get(
        `/api/v1/generation?id=${aliceOld.generationId}`,
        `lr_live_${"0".repeat(48)}`,
      );
      expect(unknown.status).toBe(401);
      expect(unknown.body.error).toMatchObject({
        message: "invalid api key",
        metadata: { reason: "key_not_found" },
      });
    });
  });
});
