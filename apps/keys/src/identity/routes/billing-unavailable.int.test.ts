import { describeWith } from "@gw/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type KeysHarness, startKeysHarness } from "../../test/harness.js";
import type { KeyJson } from "../keys/view.js";
import type { CreatedAccount } from "../operator.js";

describeWith(["postgres"], "key management with billing down", () => {
  let harness: KeysHarness;
  let owner: CreatedAccount;
  let key: KeyJson;

  beforeAll(async () => {
    harness = await startKeysHarness();
    owner = await harness.account();
    key = (await harness.request("POST", "/api/v1/keys", { key: owner.managementKey, body: { name: "k" } }))
      .body.data as KeyJson;
    await harness.billing.stop();
  });

  afterAll(async () => {
    await harness?.close();
  });

  describe("when billing cannot answer", () => {
    it("reading keys is a 503, never invented zeros", async () => {
      const get = await harness.request("GET", `/api/v1/keys/${key.hash}`, { key: owner.managementKey });
      expect(get.status).toBe(503);
      expect(get.body.error).toMatchObject({
        type: "service_unavailable",
        metadata: { reason: "dependency_unavailable" },
      });
      const list = await harness.request("GET", "/api/v1/keys", { key: owner.managementKey });
      expect(list.status).toBe(503);
    });

    it("an update is refused before anything changes", async () => {
      const response = await harness.request("PATCH", `/api/v1/keys/${key.hash}`, {
        key: owner.managementKey,
        body: { name: "renamed", disabled: true },
      });
      expect(response.status).toBe(503);
      const row = await harness.database.db
        .selectFrom("api_keys")
        .select(["name", "disabled"])
        .where("hash", "=", key.hash)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ name: "k", disabled: false });
    });

    it("creating and deleting keys, which need no usage, still work", async () => {
      const created = await harness.request("POST", "/api/v1/keys", {
        key: owner.managementKey,
        body: { name: "n" },
      });
      expect(created.status).toBe(201);
      const deleted = await harness.request("DELETE", `/api/v1/keys/${key.hash}`, {
        key: owner.managementKey,
      });
      expect(deleted.status).toBe(200);
    });
  });
});
