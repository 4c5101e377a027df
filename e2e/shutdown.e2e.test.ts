import type { ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connectDatabase, freePort } from "@gw/db";
import { type FakeServer, startFakeOpenAi } from "@gw/fake-providers";
import { createTestDatabase, describeWith, type TestDatabase } from "@gw/testing";
import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type AppProcess, eventually, startProcess, waitForHttp } from "./processes.js";

// SIGTERM on a gateway process with a stream open (what a rolling update or Ctrl-C does): a stream that
// ends within SHUTDOWN_DEADLINE_MS completes, one that does not is cut at the deadline, the process
// exits 0 either way, and both streams' usage is recorded (seen after a restart on the same database).

const DEADLINE_MS = 3_000;
const WORDS = 30;
const UPSTREAM_KEY = "sk-upstream-shutdown";

describeWith(["postgres"], "graceful shutdown of the gateway process", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "gw-shutdown-"));
  let database: TestDatabase;
  let upstream: FakeServer;
  let gateway: AppProcess | undefined;
  let url = "";
  const generations: Record<"short" | "long", string> = { short: "", long: "" };

  const start = async () => {
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    gateway = startProcess("standalone", "apps/standalone/dist/main.js", {
      PORT: String(port),
      GW_DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      DATABASE_URL: database.url,
      REDIS_URL: "",
      KAFKA_BROKERS: "",
      OPENAI_API_KEY: UPSTREAM_KEY,
      OPENAI_BASE_URL: upstream.baseUrl,
      SHUTDOWN_DEADLINE_MS: String(DEADLINE_MS),
    });
    await waitForHttp(`${url}/readyz`, gateway, 120_000);
  };

  beforeAll(async () => {
    database = await createTestDatabase({ prefix: "shutdown" });
    upstream = await startFakeOpenAi({ host: "127.0.0.1", port: 0, requireKey: UPSTREAM_KEY });
    await start();
  }, 180_000);

  afterAll(async () => {
    await gateway?.stop();
    await upstream?.close();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const apiKey = () =>
    (JSON.parse(readFileSync(join(dataDir, "dev-credentials.json"), "utf8")) as { api_key: string }).api_key;

  /** Opens a stream of WORDS chunks, `chunkMs` apart, and reads it to its end (or its cut) in the background. */
  async function openStream(chunkMs: number) {
    upstream.setScenario({ name: "slow-stream", ms: chunkMs });
    const prompt = Array.from({ length: WORDS }, (_, index) => `w${index}`).join(" ");
    const response = await fetch(`${url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey()}`, "content-type": "application/json" },
      body: JSON.stringify({
        model: "openai/gpt-4o-mini",
        stream: true,
        messages: [{ role: "user", content: prompt }],
      }),
    });
    expect(response.status).toBe(200);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = "";
    const first = await reader.read();
    text += decoder.decode(first.value, { stream: true });
    const rest = (async () => {
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return text;
          text += decoder.decode(value, { stream: true });
        }
      } catch {
        return text;
      }
    })();
    return { id: response.headers.get("x-generation-id") ?? "", rest };
  }

  /** SIGTERM; resolves with the exit code and how long the process took to exit. */
  function terminate(child: ChildProcess): Promise<{ code: number | null; ms: number }> {
    const started = Date.now();
    return new Promise((resolve) => {
      child.once("exit", (code) => resolve({ code, ms: Date.now() - started }));
      child.kill("SIGTERM");
    });
  }

  async function generationRow(id: string) {
    const reader = connectDatabase<Record<string, never>>({ url: database.url, schema: "generations" });
    try {
      return await eventually(async () => {
        const { rows } = await sql<{ cancelled: boolean; completion_tokens: number }>`
          select cancelled, completion_tokens from generations.generations where id = ${id}`.execute(
          reader.db,
        );
        return rows[0];
      }, 30_000);
    } finally {
      await reader.close();
    }
  }

  it("/readyz covers the edge and the apps inside the process", async () => {
    const response = await fetch(`${url}/readyz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      status: "ready",
      checks: {
        catalog: { ok: true },
        events: { ok: true },
        keys: { ok: true, checks: { database: { ok: true, pending: [] }, catalog: { ok: true } } },
        billing: { ok: true, checks: { database: { ok: true, pending: [] } } },
        generations: { ok: true, checks: { database: { ok: true, pending: [] } } },
      },
    });
  });

  it("a stream that ends within the deadline completes; the process exits 0", async () => {
    const stream = await openStream(50);
    generations.short = stream.id;
    const exit = await terminate((gateway as AppProcess).child);
    const text = await stream.rest;
    expect(text).toContain("data: [DONE]");
    expect(text).toContain(`w${WORDS - 1}`);
    expect(exit.code).toBe(0);
    expect(exit.ms).toBeLessThan(DEADLINE_MS + 12_000);
  });

  it("a stream longer than the deadline is cut at it; the process exits 0", async () => {
    await start();
    const stream = await openStream(400);
    generations.long = stream.id;
    const exit = await terminate((gateway as AppProcess).child);
    const text = await stream.rest;
    expect(text).not.toContain("data: [DONE]");
    expect(exit.code).toBe(0);
    // Cut at the deadline (the upstream would take 12 s more), then the flush (bounded at 10 s).
    expect(exit.ms).toBeGreaterThanOrEqual(DEADLINE_MS - 500);
    expect(exit.ms).toBeLessThan(DEADLINE_MS + 12_000);
  });

  it("both streams' usage is recorded: the whole one, and the cut one as cancelled with what it served", async () => {
    await start();
    const short = await generationRow(generations.short);
    expect(short.cancelled).toBe(false);
    expect(short.completion_tokens).toBeGreaterThan(WORDS / 2);
    const long = await generationRow(generations.long);
    expect(long.cancelled).toBe(true);
    expect(long.completion_tokens).toBeGreaterThan(0);
    // About DEADLINE_MS / 400 ms of the WORDS chunks were served before the cut.
    expect(long.completion_tokens).toBeLessThan(short.completion_tokens / 2);
  });
});
