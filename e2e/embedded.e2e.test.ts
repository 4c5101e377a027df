import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "@gw/db";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppProcess, eventually, runCli, startProcess, waitForHttp } from "./processes.js";

// The embedded default as a newcomer runs it (`pnpm start`): one process, embedded PostgreSQL under
// the data directory, in-process bus and hot store, the built-in demo provider. No service needed.

interface DevCredentials {
  account_id: string;
  management_key: string;
  api_key: string;
}

describe("embedded default (pnpm start)", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "gw-embedded-"));
  let gateway: AppProcess | undefined;
  let url: string;

  const start = async () => {
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    const env: Record<string, string> = { PORT: String(port), GW_DATA_DIR: dataDir, LOG_LEVEL: "warn" };
    // The embedded default must not need any service: hide the ones this machine happens to have.
    for (const name of ["DATABASE_URL", "REDIS_URL", "KAFKA_BROKERS", "OPENAI_API_KEY"]) env[name] = "";
    gateway = startProcess("standalone", "apps/standalone/dist/main.js", env);
    await waitForHttp(`${url}/readyz`, gateway, 120_000);
    await eventually(
      async () => (gateway?.output().includes("Model Gateway is running on") ? true : undefined),
      30_000,
    );
  };

  beforeAll(start, 180_000);

  afterAll(async () => {
    await gateway?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const credentials = () =>
    JSON.parse(readFileSync(join(dataDir, "dev-credentials.json"), "utf8")) as DevCredentials;

  it("prints the dev credentials and a curl example on first start and writes them to disk", () => {
    const printed = gateway?.output() ?? "";
    const saved = credentials();
    expect(saved.management_key).toMatch(/^lr_mgmt_[0-9a-f]{48}$/);
    expect(saved.api_key).toMatch(/^lr_live_[0-9a-f]{48}$/);
    expect(printed).toContain(saved.api_key);
    expect(printed).toContain(saved.management_key);
    expect(printed).toContain(`curl ${url}/v1/chat/completions`);
    // Once each: the curl example reads the key from the file instead of printing it again.
    expect(printed.split(saved.api_key)).toHaveLength(2);
  });

  it("serves the demo model with the printed key, metered against 10 USD of credits", async () => {
    const { api_key: apiKey } = credentials();
    const client = new OpenAI({ apiKey, baseURL: `${url}/v1` });
    const { data, response } = await client.chat.completions
      .create({ model: "demo/echo", messages: [{ role: "user", content: "Hello embedded" }] })
      .withResponse();
    expect(data.id).toBe(response.headers.get("x-generation-id"));
    expect(data.choices[0]?.message.content).toContain("demo provider");
    const cost = (data.usage as OpenAI.CompletionUsage & { cost: number }).cost;
    expect(cost).toBeGreaterThan(0);

    const generation = await eventually(async () => {
      const lookup = await fetch(`${url}/api/v1/generation?id=${data.id}`, {
        headers: { authorization: `Bearer ${apiKey}` },
      });
      return lookup.status === 200
        ? ((await lookup.json()) as { data: { provider: string } }).data
        : undefined;
    });
    expect(generation.provider).toBe("demo");

    // Billing consumes the usage event on its own schedule (the generation record says nothing about
    // it): poll until the debit is there.
    const credits = await eventually(async () => {
      const body = (await (
        await fetch(`${url}/api/v1/credits`, {
          headers: { authorization: `Bearer ${credentials().management_key}` },
        })
      ).json()) as { data: { total_credits: number; total_usage: number } };
      return body.data.total_usage > 0 ? body : undefined;
    });
    expect(credits.data.total_credits).toBe(10);
    expect(credits.data.total_usage).toBeCloseTo(cost, 15);
  });

  it("the operator CLI works against the running embedded database", async () => {
    const output = await runCli(
      "apps/standalone/dist/cli/main.js",
      ["accounts", "create", "--name", "cli", "--json"],
      {
        GW_DATA_DIR: dataDir,
        DATABASE_URL: "",
      },
    );
    const created = JSON.parse(output) as { account_id: string; management_key: string };
    const keys = await fetch(`${url}/api/v1/keys`, {
      headers: { authorization: `Bearer ${created.management_key}` },
    });
    expect(keys.status).toBe(200);
    expect(((await keys.json()) as { data: unknown[] }).data).toEqual([]);
  });

  it("reuses the data and credentials on the next start", async () => {
    const before = credentials();
    const usageBefore = (await (
      await fetch(`${url}/v1/key`, { headers: { authorization: `Bearer ${before.api_key}` } })
    ).json()) as { data: { usage: number } };
    const stopped = gateway;
    await stopped?.stop();
    // Stopped as Ctrl-C stops it (SIGTERM): a clean exit, no crash on the way out.
    expect(stopped?.output()).not.toContain("Unhandled 'error' event");
    expect(stopped?.child.exitCode).toBe(0);
    await start();
    expect(credentials()).toEqual(before);
    // Only the start that created the keys prints them; this one points to the file.
    const printed = gateway?.output() ?? "";
    expect(printed).not.toContain(before.api_key);
    expect(printed).not.toContain(before.management_key);
    expect(printed).toContain(join(dataDir, "dev-credentials.json"));
    const usageAfter = (await (
      await fetch(`${url}/v1/key`, { headers: { authorization: `Bearer ${before.api_key}` } })
    ).json()) as { data: { usage: number } };
    expect(usageAfter.data.usage).toBe(usageBefore.data.usage);
    expect(usageAfter.data.usage).toBeGreaterThan(0);
  }, 180_000);
});
