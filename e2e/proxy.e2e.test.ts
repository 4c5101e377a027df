import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "@gw/db";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppProcess, eventually, runCli, startProcess, waitForHttp } from "./processes.js";

// The provider proxy on the embedded default, as a process: a native call to the built-in demo provider
// is metered by the real billing and recorded by the real generations app, like every other surface.

interface Generation {
  model: string;
  provider: string;
  api_type: string;
  streamed: boolean;
  usage: { prompt_tokens: number; completion_tokens: number; cost: number };
}

describe("provider proxy on the embedded default", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "gw-proxy-"));
  let gateway: AppProcess | undefined;
  let url: string;
  let apiKey: string;
  let managementKey: string;

  beforeAll(async () => {
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    const env: Record<string, string> = { PORT: String(port), GW_DATA_DIR: dataDir, LOG_LEVEL: "warn" };
    for (const name of ["DATABASE_URL", "REDIS_URL", "KAFKA_BROKERS", "OPENAI_API_KEY"]) env[name] = "";
    gateway = startProcess("standalone", "apps/standalone/dist/main.js", env);
    await waitForHttp(`${url}/readyz`, gateway, 120_000);
    // The banner (keys are printed only by the start that created them).
    await eventually(
      async () => (gateway?.output().includes("Model Gateway is running on") ? true : undefined),
      30_000,
    );
    const saved = JSON.parse(readFileSync(join(dataDir, "dev-credentials.json"), "utf8")) as {
      api_key: string;
      management_key: string;
    };
    apiKey = saved.api_key;
    managementKey = saved.management_key;
  }, 180_000);

  afterAll(async () => {
    await gateway?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const generation = (id: string) =>
    eventually(async () => {
      const lookup = await fetch(`${url}/api/v1/generation?id=${id}`, {
        headers: { authorization: `Bearer ${apiKey}` },
      });
      return lookup.status === 200 ? ((await lookup.json()) as { data: Generation }).data : undefined;
    });

  it("meters native calls (plain and streamed) as proxy generations and charges the account", async () => {
    const client = new OpenAI({ apiKey, baseURL: `${url}/demo/v1`, maxRetries: 0 });
    const messages = [{ role: "user" as const, content: "Hello proxy" }];
    const plain = await client.chat.completions.create({ model: "echo", messages }).withResponse();
    expect(plain.data.choices[0]?.message.content).toContain("demo provider");
    const streamed = await client.chat.completions
      .create({ model: "echo", messages, stream: true })
      .withResponse();
    let text = "";
    for await (const chunk of streamed.data) text += chunk.choices[0]?.delta.content ?? "";
    expect(text).toContain("demo provider");

    const ids = [plain.response, streamed.response].map(
      (response) => response.headers.get("x-generation-id") ?? "",
    );
    const recorded = await Promise.all(ids.map(generation));
    for (const [index, entry] of recorded.entries()) {
      expect(entry).toMatchObject({
        model: "demo/echo",
        provider: "demo",
        api_type: "proxy",
        streamed: index === 1,
      });
      expect(entry.usage.prompt_tokens).toBeGreaterThan(0);
      expect(entry.usage.cost).toBeGreaterThan(0);
    }
    expect(recorded[0]?.usage.completion_tokens).toBe(plain.data.usage?.completion_tokens);

    const charged = recorded.reduce((total, entry) => total + entry.usage.cost, 0);
    const usage = await eventually(async () => {
      const credits = (await (
        await fetch(`${url}/api/v1/credits`, { headers: { authorization: `Bearer ${managementKey}` } })
      ).json()) as { data: { total_usage: number } };
      return Math.abs(credits.data.total_usage - charged) < 1e-12 ? credits.data.total_usage : undefined;
    });
    expect(usage).toBeCloseTo(charged, 15);
  });

  it("serves a model the catalogue did not price once the operator prices it, billed at that price", async () => {
    const model = "echo-operator-priced";
    const call = () =>
      fetch(`${url}/demo/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
        body: JSON.stringify({ model, messages: [{ role: "user", content: "priced by the operator" }] }),
      });
    const refused = await call();
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain(
      `model ${model} is not priced at provider demo`,
    );

    const priced = JSON.parse(
      await runCli(
        "apps/standalone/dist/cli/main.js",
        [
          "catalog",
          "price",
          "--provider",
          "demo",
          "--model",
          model,
          "--prompt",
          "3",
          "--completion",
          "7",
          "--json",
        ],
        { GW_DATA_DIR: dataDir, DATABASE_URL: "" },
      ),
    ) as { model_id: string; prompt_usd_per_million: string; completion_usd_per_million: string };
    expect(priced).toMatchObject({
      model_id: `demo/${model}`,
      prompt_usd_per_million: "3",
      completion_usd_per_million: "7",
    });

    // The edge serves it after its next catalogue refresh (CATALOG_REFRESH_MS, 5 s by default).
    const served = await eventually(async () => {
      const response = await call();
      return response.status === 200 ? response : undefined;
    }, 30_000);
    // The native answer is the provider's own body; the charge is in the generation record.
    const body = (await served.json()) as { usage: { prompt_tokens: number; completion_tokens: number } };
    const recorded = await generation(served.headers.get("x-generation-id") ?? "");
    expect(recorded).toMatchObject({ model: `demo/${model}`, provider: "demo", api_type: "proxy" });
    expect(recorded.usage).toMatchObject({
      prompt_tokens: body.usage.prompt_tokens,
      completion_tokens: body.usage.completion_tokens,
    });
    const expected = body.usage.prompt_tokens * 3e-6 + body.usage.completion_tokens * 7e-6;
    expect(expected).toBeGreaterThan(0);
    expect(recorded.usage.cost).toBeCloseTo(expected, 12);
  });

  it("refuses a call without a key before anything is forwarded", async () => {
    const response = await fetch(`${url}/demo/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "echo", messages: [] }),
    });
    expect(response.status).toBe(401);
  });
});
