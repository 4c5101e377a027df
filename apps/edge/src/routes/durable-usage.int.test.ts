import { InProcessEventBus } from "@gw/events";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type EdgeHarness, startEdgeHarness } from "../test/harness.js";
import { testKey } from "../test/principals.js";

// The embedded default's bus persists usage in-process (a PostgreSQL outbox) and the edge waits for
// that before a response completes, so a crash after a client saw its answer never loses the usage.
// Here the bus's persisted() is held open: every surface must keep its answer unfinished until it
// resolves, and finish it then.

/** An in-process bus whose persisted() resolves only when the test says so. */
class GatedBus extends InProcessEventBus {
  published = 0;
  private open: () => void = () => {};
  private gate: Promise<void> = Promise.resolve();

  closeGate(): void {
    this.gate = new Promise((resolve) => {
      this.open = resolve;
    });
  }

  openGate(): void {
    this.open();
  }

  persisted(): Promise<void> {
    return this.gate;
  }

  override publish(topic: string, key: string, value: Uint8Array, headers?: Record<string, string>): void {
    super.publish(topic, key, value, headers);
    this.published++;
  }
}

const key = testKey("acct-durable");
const bus = new GatedBus();
let edge: EdgeHarness;

beforeAll(async () => {
  edge = await startEdgeHarness({ keys: [key], bus });
});

afterAll(async () => {
  bus.openGate();
  await edge?.stop();
});

beforeEach(() => {
  bus.closeGate();
});

function post(path: string, body: unknown): Promise<string> {
  return fetch(`${edge.url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${key.secret}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  }).then((response) => response.text());
}

const chat = { model: "openai/gpt-4o-mini", messages: [{ role: "user", content: "durable" }] };

describe.each([
  { surface: "chat completion", path: "/v1/chat/completions", body: chat, ends: '"usage"' },
  {
    surface: "streamed chat completion",
    path: "/v1/chat/completions",
    body: { ...chat, stream: true },
    ends: "data: [DONE]",
  },
  {
    surface: "embeddings",
    path: "/v1/embeddings",
    body: { model: "test/embed", input: "durable" },
    ends: '"usage"',
  },
  {
    surface: "provider proxy",
    path: "/openai/v1/chat/completions",
    body: { model: "gpt-4o-mini", messages: chat.messages },
    ends: '"usage"',
  },
])("$surface: the answer completes only after the usage event is persisted", ({ path, body, ends }) => {
  it("holds the end of the response until the bus has the event durable", async () => {
    const before = bus.published;
    let finished = false;
    const answer = post(path, body).then((text) => {
      finished = true;
      return text;
    });
    const deadline = Date.now() + 10_000;
    while (bus.published === before) {
      if (Date.now() > deadline) throw new Error("no usage event published");
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    // Published, not yet persisted: the client must not have its whole answer.
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(finished).toBe(false);
    bus.openGate();
    expect(await answer).toContain(ends);
  });
});
