import { connect } from "node:net";
import { describeWith } from "@gw/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type KeysHarness, startKeysHarness } from "../../test/harness.js";
import type { CreatedAccount } from "../operator.js";

// The probe's inputs against the keys app's management routes (issue 16): a NUL or a bad
// percent-escape in key names, BYOK fields and path segments, deep nesting, a body that never
// completes. Each is a 4xx in the route's envelope and changes nothing; before, several were 500s.
describeWith(["postgres"], "keys app: hostile input on the management routes", () => {
  let harness: KeysHarness;
  let owner: CreatedAccount;

  beforeAll(async () => {
    harness = await startKeysHarness();
    owner = await harness.account("owner");
  });

  afterAll(async () => {
    await harness?.close();
  });

  const raw = async (method: string, path: string, body?: string) => {
    const response = await fetch(`${harness.running.httpUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${owner.managementKey}`, "content-type": "application/json" },
      body: body ?? null,
    });
    return { status: response.status, body: (await response.json()) as { error?: Record<string, unknown> } };
  };

  const counts = async () => {
    const keys = await harness.database.db
      .selectFrom("api_keys")
      .select(({ fn }) => fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    const byok = await harness.database.db
      .selectFrom("provider_credentials")
      .select(({ fn }) => fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    return { keys: Number(keys.n), byok: Number(byok.n) };
  };

  const refusedUnchanged = async (method: string, path: string, body?: string, status = 400) => {
    const before = await counts();
    const answer = await raw(method, path, body);
    expect(answer.status, `${method} ${path} ${body ?? ""}`.slice(0, 120)).toBe(status);
    expect(answer.body.error).toMatchObject({ type: expect.any(String), message: expect.any(String) });
    expect(await counts()).toEqual(before);
    return answer;
  };

  describe("path segments", () => {
    it.each([
      "/api/v1/keys/%00",
      "/api/v1/keys/%ff",
      "/api/v1/keys/%e0%80",
      "/api/v1/byok/%00",
      "/api/v1/byok/a%0ab",
    ])("GET %s is a 400 malformed_url", async (path) => {
      const answer = await refusedUnchanged("GET", path);
      expect(answer.body.error).toMatchObject({ metadata: { reason: "malformed_url" } });
    });

    it("PATCH and DELETE with a bad escape change nothing", async () => {
      await refusedUnchanged("PATCH", "/api/v1/keys/%ff", JSON.stringify({ disabled: true }));
      await refusedUnchanged("DELETE", "/api/v1/keys/%00");
      await refusedUnchanged("DELETE", "/api/v1/byok/%ff");
    });

    it("a bad escape in the query is a 400", async () => {
      await refusedUnchanged("GET", "/api/v1/keys?offset=%ff");
      await refusedUnchanged("GET", "/api/v1/byok?provider=%00");
    });
  });

  describe("bodies", () => {
    it.each([
      ["POST", "/api/v1/keys", { name: "a\u0000b" }, "name"],
      ["POST", "/api/v1/keys", { name: "ok", allowed_models: ["openai/gpt-4o\u0000"] }, "allowed_models[0]"],
      ["POST", "/api/v1/byok", { provider: "openai\u0000", key: "sk-valid-123456" }, "provider"],
      ["POST", "/api/v1/byok", { provider: "openai", key: "sk-valid-123456", name: "n\u0000" }, "name"],
    ])("%s %s with a NUL names the field (%j)", async (method, path, body, field) => {
      const answer = await refusedUnchanged(method, path, JSON.stringify(body));
      expect(answer.body.error).toMatchObject({ metadata: { field } });
    });

    it("nesting 10,000 deep is a 400 json_too_deep", async () => {
      const deep = `{"name":${"[".repeat(10_000)}${"]".repeat(10_000)}}`;
      const answer = await refusedUnchanged("POST", "/api/v1/keys", deep);
      expect(answer.body.error).toMatchObject({ metadata: { reason: "json_too_deep" } });
    });

    it("wrong types, prototype keys and malformed JSON are 400s", async () => {
      for (const body of [
        '{"name": 5}',
        '{"name": "x", "limit": "ten"}',
        '{"name": "x", "limit": 0.5e999}',
        '{"__proto__": {"admin": true}}',
        '{"name": "x"',
        '"just a string"',
        "[]",
      ]) {
        await refusedUnchanged("POST", "/api/v1/keys", body);
      }
      expect(({} as Record<string, unknown>).admin).toBeUndefined();
    });
  });

  it("a body that never completes is a 408 after the body timeout and creates nothing", async () => {
    const before = await counts();
    const answer = await new Promise<string>((resolve, reject) => {
      const url = new URL(harness.running.httpUrl);
      const socket = connect(Number(url.port), url.hostname);
      let received = "";
      socket.on("data", (chunk) => {
        received += chunk.toString();
      });
      socket.on("error", reject);
      socket.on("close", () => resolve(received));
      socket.write(
        [
          "POST /api/v1/keys HTTP/1.1",
          "Host: keys",
          `Authorization: Bearer ${owner.managementKey}`,
          "Content-Type: application/json",
          "Content-Length: 64",
          "",
          '{"name":"never finished',
        ].join("\r\n"),
      );
    });
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(answer).toContain('"code":408,"metadata":{"reason":"body_timeout"}');
    expect(await counts()).toEqual(before);
  }, 20_000);
});
