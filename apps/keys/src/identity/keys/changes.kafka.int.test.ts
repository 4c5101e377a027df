import { ensureTopics, KafkaEventBus } from "@gw/kafka";
import { describeWith, kafkaBrokers, uniqueName } from "@gw/testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import { eventually, type KeysHarness, startKeysHarness } from "../../test/harness.js";
import type { CreatedAccount } from "../operator.js";
import type { KeyJson } from "./view.js";

// The same key-change announcements as on the in-process bus, through a real broker: what edges in
// other processes consume to drop cached principals.
describeWith(["postgres", "kafka"], "key-change events on Kafka", () => {
  let harness: KeysHarness;
  let owner: CreatedAccount;

  beforeAll(async () => {
    harness = await startKeysHarness({
      bus: async (topics) => {
        const brokers = kafkaBrokers();
        // The keys app consumes usage too (the endpoint health aggregator, 151d7fb).
        await ensureTopics(brokers, [topics.keyChanges, topics.usage]);
        return new KafkaEventBus({ brokers, clientId: uniqueName("keys-test") });
      },
    });
    owner = await harness.account();
  });

  afterAll(async () => {
    await harness?.close();
  });

  it("announces a disable and a delete, in order, keyed by the account", async () => {
    const created = await harness.request("POST", "/api/v1/keys", {
      key: owner.managementKey,
      body: { name: "k" },
    });
    const key = created.body.data as KeyJson;
    await harness.request("PATCH", `/api/v1/keys/${key.hash}`, {
      key: owner.managementKey,
      body: { disabled: true },
    });
    await harness.request("DELETE", `/api/v1/keys/${key.hash}`, { key: owner.managementKey });
    await eventually(() => harness.keyChanges.length >= 2, 30_000);
    expect(harness.keyChanges).toEqual([
      { keyHash: key.hash, accountId: owner.accountId, change: "disabled" },
      { keyHash: key.hash, accountId: owner.accountId, change: "deleted" },
    ]);
  });
});
