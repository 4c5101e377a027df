import { freePort } from "@gw/db";
import { ensureTopics } from "@gw/kafka";
import { createTestDatabase, kafkaBrokers, type TestDatabase, uniqueName } from "@gw/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppProcess, eventually, startProcess, waitForHttp } from "./processes.js";

// Issue 33: the generations app exited at start on a young broker (its topics not created yet, as
// while an init job or the broker's own auto-creation is still running): the first subscribe threw
// "This server does not host this topic-partition" and the process exited 1 after kafkajs's own
// retries (about 23 s here). It now serves, reports not ready naming why, and subscribes once the
// topics are there, without a restart.

interface ReadyReport {
  status: string;
  checks: { consumers?: { ok: boolean; error?: string } };
}

describe("the generations app started before its topics exist", () => {
  let database: TestDatabase;
  let app: AppProcess;
  const topics = {
    TOPIC_USAGE: uniqueName("young.usage"),
    TOPIC_KEY_CHANGES: uniqueName("young.key-changes"),
    TOPIC_PAYMENTS: uniqueName("young.payments"),
  };

  beforeAll(async () => {
    database = await createTestDatabase({ prefix: "young" });
  });

  afterAll(async () => {
    await app?.stop();
    await database?.drop();
  });

  it("stays up, answers /readyz 503 naming the consumers, and becomes ready once the topics exist", async () => {
    const httpPort = await freePort();
    app = startProcess("generations", "apps/generations/dist/main.js", {
      ...topics,
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
      DATABASE_URL: database.url,
      KAFKA_BROKERS: kafkaBrokers().join(","),
      HTTP_PORT: String(httpPort),
      GRPC_PORT: String(await freePort()),
    });
    const base = `http://127.0.0.1:${httpPort}`;
    await waitForHttp(`${base}/healthz`, app, 120_000);
    const notReady = await fetch(`${base}/readyz`);
    expect(notReady.status).toBe(503);
    const report = (await notReady.json()) as ReadyReport;
    expect(report.checks.consumers).toMatchObject({
      ok: false,
      error: expect.stringContaining("not subscribed"),
    });
    expect(app.child.exitCode).toBeNull();

    await ensureTopics(
      kafkaBrokers(),
      Object.values(topics).map((name) => ({ name, partitions: 1 })),
    );
    await eventually(async () => ((await fetch(`${base}/readyz`)).status === 200 ? true : undefined), 90_000);
    expect(app.child.exitCode).toBeNull();
  }, 240_000);
});
