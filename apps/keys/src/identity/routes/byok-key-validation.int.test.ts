import { describeWith } from "@gw/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type KeysHarness, startKeysHarness } from "../../test/harness.js";
import type { CredentialJson } from "../byok/view.js";
import type { CreatedAccount } from "../operator.js";

// A provider key goes into an HTTP header on every call made with it: one that cannot (CR/LF, NUL, other
// controls, non-ASCII, oversize) is a 400 naming `key` when it is entered, and nothing is stored.
describeWith(["postgres"], "BYOK: provider keys are header-safe on entry", () => {
  let harness: KeysHarness;
  let owner: CreatedAccount;

  beforeAll(async () => {
    harness = await startKeysHarness();
    owner = await harness.account("owner");
  });

  afterAll(async () => {
    await harness?.close();
  });

  const listed = async () =>
    (await harness.request("GET", "/api/v1/byok", { key: owner.managementKey })).body
      .data as CredentialJson[];

  const unsafe = [
    "sk-abc\r\nX-Injected: yes",
    "sk-abc\ndef",
    "sk-abc\u0000",
    "sk-\u0007bell",
    "sk-ключ",
    "k".repeat(4_097),
  ];

  describe("POST /api/v1/byok", () => {
    it.each(unsafe.map((key) => [JSON.stringify(key).slice(0, 40), key]))(
      "refuses %s with 400 naming the field",
      async (_label, key) => {
        const response = await harness.request("POST", "/api/v1/byok", {
          key: owner.managementKey,
          body: { provider: "openai", key },
        });
        expect(response.status).toBe(400);
        expect(response.body.error).toMatchObject({
          type: "invalid_request_error",
          metadata: { field: "key" },
        });
        expect(JSON.stringify(response.body)).not.toContain("sk-abc");
        expect(await listed()).toEqual([]);
      },
    );
  });

  describe("PATCH /api/v1/byok/:id", () => {
    it("refuses an unsafe replacement key and keeps the stored one", async () => {
      const created = await harness.request("POST", "/api/v1/byok", {
        key: owner.managementKey,
        body: { provider: "openai", key: "sk-good-0123456789" },
      });
      expect(created.status).toBe(201);
      const credential = created.body.data as CredentialJson;
      for (const key of unsafe) {
        const response = await harness.request("PATCH", `/api/v1/byok/${credential.id}`, {
          key: owner.managementKey,
          body: { key },
        });
        expect(response.status).toBe(400);
        expect(response.body.error).toMatchObject({ metadata: { field: "key" } });
      }
      expect(await listed()).toEqual([credential]);
    });
  });
});
