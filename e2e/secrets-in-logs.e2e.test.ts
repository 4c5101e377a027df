import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "@gw/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppProcess, eventually, startProcess, waitForHttp } from "./processes.js";

// Secrets never reach the embedded default's output: the bootstrap keys are printed by the start that
// created them and by no later one, and a run at LOG_LEVEL=trace logs none of the API key, the
// management key, a key created through the API, a BYOK plaintext, or the master and service keys.

interface DevCredentials {
  account_id: string;
  management_key: string;
  api_key: string;
}

describe("embedded default: secrets in its output", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "gw-secrets-"));
  const byokMasterKey = randomBytes(32).toString("hex");
  const byokPlaintext = `sk-byok-plaintext-${randomBytes(12).toString("hex")}`;
  let gateway: AppProcess | undefined;
  let url: string;
  /** Everything the second (trace-level) run wrote, in full: the child helper keeps only a tail. */
  let output = "";

  const start = async (logLevel: string): Promise<AppProcess> => {
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    const env: Record<string, string> = {
      PORT: String(port),
      GW_DATA_DIR: dataDir,
      LOG_LEVEL: logLevel,
      BYOK_MASTER_KEY: byokMasterKey,
    };
    for (const name of ["DATABASE_URL", "REDIS_URL", "KAFKA_BROKERS", "OPENAI_API_KEY"]) env[name] = "";
    const app = startProcess("standalone", "apps/standalone/dist/main.js", env);
    return app;
  };
  const ready = async (app: AppProcess, read: () => string) => {
    await waitForHttp(`${url}/readyz`, app, 120_000);
    await eventually(async () => (read().includes("Model Gateway is running on") ? true : undefined), 30_000);
  };

  const credentials = () =>
    JSON.parse(readFileSync(join(dataDir, "dev-credentials.json"), "utf8")) as DevCredentials;
  const serviceKeys = () =>
    Object.values(
      JSON.parse(readFileSync(join(dataDir, "service-keys.json"), "utf8")) as Record<
        string,
        { privateKey: string }
      >,
    ).map((pair) => pair.privateKey);

  let createdKey = "";

  beforeAll(async () => {
    // First start: creates the dev account (its banner may show the keys, once).
    const first = await start("warn");
    await ready(first, () => first.output());
    await first.stop();
    // Second start, at trace, with traffic over every kind of secret.
    gateway = await start("trace");
    const append = (chunk: Buffer) => {
      output += chunk.toString();
    };
    gateway.child.stdout?.on("data", append);
    gateway.child.stderr?.on("data", append);
    await ready(gateway, () => output);
    const { api_key: apiKey, management_key: managementKey } = credentials();
    const json = (key: string) => ({ authorization: `Bearer ${key}`, "content-type": "application/json" });
    const chat = await fetch(`${url}/v1/chat/completions`, {
      method: "POST",
      headers: json(apiKey),
      body: JSON.stringify({ model: "demo/echo", messages: [{ role: "user", content: "hello" }] }),
    });
    expect(chat.status).toBe(200);
    const created = await fetch(`${url}/api/v1/keys`, {
      method: "POST",
      headers: json(managementKey),
      body: JSON.stringify({ name: "made through the API" }),
    });
    expect(created.status).toBe(201);
    createdKey = ((await created.json()) as { key: string }).key;
    const byok = await fetch(`${url}/api/v1/byok`, {
      method: "POST",
      headers: json(managementKey),
      body: JSON.stringify({ provider: "openai", key: byokPlaintext }),
    });
    expect(byok.status).toBe(201);
    expect((await fetch(`${url}/api/v1/credits`, { headers: json(managementKey) })).status).toBe(200);
    expect((await fetch(`${url}/v1/key`, { headers: json(createdKey) })).status).toBe(200);
    // A refused key is logged as a refusal, not as the key.
    expect((await fetch(`${url}/v1/key`, { headers: json(`${apiKey.slice(0, -4)}0000`) })).status).toBe(401);
    await gateway.stop();
    gateway = undefined;
  }, 300_000);

  afterAll(async () => {
    await gateway?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("logged below info (the scan below reads the most verbose output there is)", () => {
    // The edge's request log is at debug (20): one line per request above.
    expect(output.split("\n").filter((line) => line.includes('"level":20')).length).toBeGreaterThan(5);
  });

  it("points to the credentials file instead of printing the keys on a later start", () => {
    expect(output).toContain(join(dataDir, "dev-credentials.json"));
  });

  it("has no line with the API key, the management key, a created key or a BYOK plaintext", () => {
    const { api_key: apiKey, management_key: managementKey } = credentials();
    const secrets = { apiKey, managementKey, createdKey, byokPlaintext, byokMasterKey };
    for (const [name, secret] of Object.entries(secrets)) {
      expect(secret.length, name).toBeGreaterThan(16);
      expect(output.includes(secret), `${name} in the output`).toBe(false);
    }
  });

  it("has no line with a service signing key", () => {
    for (const privateKey of serviceKeys()) expect(output.includes(privateKey)).toBe(false);
  });
});
