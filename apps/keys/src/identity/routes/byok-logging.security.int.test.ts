import { memoryLogger } from "@gw/logger";
import { describeWith } from "@gw/testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type KeysHarness, startKeysHarness } from "../../test/harness.js";

// A provider key goes in once and is never written out again, in responses or in logs at any level.
describeWith(["postgres"], "BYOK plaintext never reaches the logs", () => {
  const PROVIDER_KEY = "sk-proj-never-log-me-4f1c2a9b7e";
  const capture = memoryLogger("trace");
  let harness: KeysHarness;

  beforeAll(async () => {
    harness = await startKeysHarness({ logger: capture.logger });
  });

  afterAll(async () => {
    await harness?.close();
  });

  it("logs the credential's id and provider at trace level, never the key", async () => {
    const account = await harness.account();
    const created = await harness.request("POST", "/api/v1/byok", {
      key: account.managementKey,
      body: { provider: "openai", key: PROVIDER_KEY },
    });
    expect(created.status).toBe(201);
    const id = (created.body.data as { id: string }).id;
    await harness.request("PATCH", `/api/v1/byok/${id}`, {
      key: account.managementKey,
      body: { position: 0 },
    });
    await harness.request("DELETE", `/api/v1/byok/${id}`, { key: account.managementKey });
    const log = capture.lines().join("");
    expect(log).toContain(id);
    expect(log).not.toContain(PROVIDER_KEY);
    expect(log).not.toContain(PROVIDER_KEY.slice(8, -4));
  });
});
