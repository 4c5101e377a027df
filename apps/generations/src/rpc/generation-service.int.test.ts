import { GenerationServiceClient } from "@gw/proto/generations/v1/generations";
import { insecureCredentials, unaryCall } from "@gw/rpc";
import { describeWith } from "@gw/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, type GenerationsHarness, startGenerationsHarness } from "../test/harness.js";
import { publishUsage, usageEvent } from "../test/usage-events.js";

describeWith(["postgres"], "GenerationService", () => {
  let harness: GenerationsHarness;
  let client: InstanceType<typeof GenerationServiceClient>;

  beforeAll(async () => {
    harness = await startGenerationsHarness();
    client = new GenerationServiceClient(harness.running.grpcAddress, insecureCredentials());
  });

  afterAll(async () => {
    client?.close();
    await harness?.close();
  });

  describe("GenerationService.Get", () => {
    it("returns the recorded event exactly as it was published", async () => {
      const usage = usageEvent({ accountId: "acct_rpc" });
      publishUsage(harness.bus, harness.topics.usage, usage);
      await eventually(async () => {
        const row = await harness.database.db
          .selectFrom("generations")
          .select("id")
          .where("id", "=", usage.generationId)
          .executeTakeFirst();
        return row !== undefined;
      });
      const answer = await unaryCall(client, client.get)({ id: usage.generationId, accountId: "acct_rpc" });
      expect(answer.result).toEqual({ $case: "generation", value: usage });
    });

    it("answers not_found for an unknown id", async () => {
      const answer = await unaryCall(client, client.get)({ id: "gen-unknown", accountId: "acct_rpc" });
      expect(answer.result).toEqual({ $case: "notFound", value: true });
    });
  });
});
