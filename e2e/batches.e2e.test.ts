import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Anthropic from "@anthropic-ai/sdk";
import { freePort } from "@gw/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppProcess, eventually, startProcess, waitForHttp } from "./processes.js";

// Message batches end to end on the embedded default: stored by the generations app in PostgreSQL,
// served by the edge through the normal request path, surviving a restart of the whole gateway.

describe("message batches (Anthropic SDK, embedded default)", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "gw-batches-"));
  let gateway: AppProcess | undefined;
  let url: string;

  const start = async () => {
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
  };

  beforeAll(start, 180_000);

  afterAll(async () => {
    await gateway?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const client = () => {
    const { api_key: apiKey } = JSON.parse(readFileSync(join(dataDir, "dev-credentials.json"), "utf8")) as {
      api_key: string;
    };
    return { apiKey, anthropic: new Anthropic({ apiKey, baseURL: url, maxRetries: 0 }) };
  };

  it("runs every request through the gateway, metered, with results at an absolute URL, across a restart", async () => {
    const { apiKey, anthropic } = client();
    const created = await anthropic.messages.batches.create({
      requests: [
        {
          custom_id: "one",
          params: { model: "demo/echo", max_tokens: 50, messages: [{ role: "user", content: "first" }] },
        },
        {
          custom_id: "two",
          params: { model: "demo/echo", max_tokens: 50, messages: [{ role: "user", content: "second" }] },
        },
        {
          custom_id: "bad",
          params: { model: "nope/missing", max_tokens: 5, messages: [{ role: "user", content: "x" }] },
        },
      ],
    });
    expect(created).toMatchObject({
      type: "message_batch",
      processing_status: "in_progress",
      results_url: null,
    });
    expect(created.request_counts.processing).toBe(3);

    const ended = await eventually(async () => {
      const batch = await anthropic.messages.batches.retrieve(created.id);
      return batch.processing_status === "ended" ? batch : undefined;
    }, 60_000);
    expect(ended.request_counts).toMatchObject({ processing: 0, succeeded: 2, errored: 1 });
    expect(ended.results_url).toBe(`${url}/v1/messages/batches/${created.id}/results`);

    const results = new Map<string, Anthropic.Messages.MessageBatchResult>();
    for await (const line of await anthropic.messages.batches.results(created.id))
      results.set(line.custom_id, line.result);
    const one = results.get("one");
    expect(one?.type).toBe("succeeded");
    const message = one?.type === "succeeded" ? one.message : undefined;
    expect(message?.content[0]).toMatchObject({ type: "text" });
    expect(results.get("bad")).toMatchObject({
      type: "errored",
      error: { type: "error", error: { type: "not_found_error" } },
    });

    // Each request was metered like any other: its generation record exists with api_type messages.
    const generation = await eventually(async () => {
      const lookup = await fetch(`${url}/api/v1/generation?id=${message?.id}`, {
        headers: { authorization: `Bearer ${apiKey}` },
      });
      return lookup.status === 200
        ? ((await lookup.json()) as { data: { api_type: string } }).data
        : undefined;
    });
    expect(generation.api_type).toBe("messages");

    await gateway?.stop();
    await start();
    const again = client().anthropic;
    expect((await again.messages.batches.retrieve(created.id)).processing_status).toBe("ended");
    const listed = [];
    for await (const batch of again.messages.batches.list()) listed.push(batch.id);
    expect(listed).toContain(created.id);
    const lines = [];
    for await (const line of await again.messages.batches.results(created.id)) lines.push(line.custom_id);
    expect(lines.sort()).toEqual(["bad", "one", "two"]);
    expect(await again.messages.batches.delete(created.id)).toEqual({
      id: created.id,
      type: "message_batch_deleted",
    });
    await expect(again.messages.batches.retrieve(created.id)).rejects.toBeInstanceOf(Anthropic.NotFoundError);
  }, 240_000);

  it("cancels a batch and answers bad batches in Anthropic's shape", async () => {
    const { apiKey, anthropic } = client();
    const bad = await fetch(`${url}/v1/messages/batches`, {
      method: "POST",
      headers: { "x-api-key": apiKey, "content-type": "application/json" },
      body: JSON.stringify({ requests: [{ custom_id: "a", params: { model: "demo/echo", messages: [] } }] }),
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      type: "error",
      error: { type: "invalid_request_error", message: expect.stringMatching(/^requests\[0\]\.params\./) },
    });
    // Enough requests that the worker (polling each second) cannot have served them all before the
    // cancel: a cancel that does nothing leaves every one succeeded.
    const size = 100;
    const created = await anthropic.messages.batches.create({
      requests: Array.from({ length: size }, (_, index) => ({
        custom_id: `c${index}`,
        params: { model: "demo/echo", max_tokens: 5, messages: [{ role: "user" as const, content: "x" }] },
      })),
    });
    const canceled = await anthropic.messages.batches.cancel(created.id);
    expect(canceled.cancel_initiated_at).not.toBeNull();
    const ended = await eventually(async () => {
      const batch = await anthropic.messages.batches.retrieve(created.id);
      return batch.processing_status === "ended" ? batch : undefined;
    }, 60_000);
    const counts = ended.request_counts;
    expect(counts.canceled).toBeGreaterThan(0);
    expect(counts.canceled + counts.succeeded + counts.errored + counts.expired).toBe(size);
    const results = new Map<string, string>();
    for await (const line of await anthropic.messages.batches.results(created.id))
      results.set(line.custom_id, line.result.type);
    expect([...results.values()].filter((type) => type === "canceled")).toHaveLength(counts.canceled);
  });
});
