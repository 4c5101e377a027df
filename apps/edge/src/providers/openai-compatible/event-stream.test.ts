import type { Dispatcher } from "undici";
import { describe, expect, it } from "vitest";
import type { AttemptSignals } from "../http.js";
import type { StreamEvent, StreamRelayTarget } from "../types.js";
import { UpstreamBody } from "../upstream-body.js";
import { OpenAiEventStream } from "./event-stream.js";

function signals(): AttemptSignals {
  const client = new AbortController().signal;
  const total = new AbortController().signal;
  return { client, total, combined: AbortSignal.any([client, total]) };
}

function upstream() {
  const state = { paused: false, aborted: false };
  const controller: Dispatcher.DispatchController = {
    aborted: false,
    paused: false,
    reason: null,
    abort: () => {
      state.aborted = true;
    },
    pause: () => {
      state.paused = true;
    },
    resume: () => {
      state.paused = false;
    },
  };
  const body = new UpstreamBody(() => undefined);
  body.attach(controller);
  return { body, state };
}

const chunk = (content: string, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: "up-1", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta: { content }, finish_reason: finish }] })}\n\n`;
const usage = `data: ${JSON.stringify({ id: "up-1", choices: [], usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } })}\n\n`;

/** A relay target that records what it was given: raw frames as their decoded JSON. */
function recorder(room: () => boolean = () => true) {
  const seen: string[] = [];
  const events: StreamEvent[] = [];
  let flushes = 0;
  let ends = 0;
  const target: StreamRelayTarget = {
    raw: (bytes, start, text, scan) => {
      expect(bytes.toString("latin1", start, start + text.length)).toBe(text);
      expect(scan.hasChoices).toBe(true);
      seen.push(bytes.toString("utf8", start, start + text.length));
    },
    event: (event) => events.push(event),
    flush: () => {
      flushes++;
      return room();
    },
    end: () => ends++,
  };
  return { target, seen, events, flushes: () => flushes, ends: () => ends };
}

describe("OpenAiEventStream relayed", () => {
  it("pushes content frames as bytes, usage as an event, one flush per read, and stops at [DONE]", () => {
    const { body } = upstream();
    const stream = new OpenAiEventStream(body, signals());
    const record = recorder();
    stream.relay(record.target);
    body.push(Buffer.from(chunk("héllo ") + chunk("世界")));
    body.push(Buffer.from(`${chunk("", "stop") + usage}data: [DONE]\n\n${chunk("after")}`));
    expect(record.seen.map((text) => JSON.parse(text).choices[0].delta.content)).toEqual([
      "héllo ",
      "世界",
      "",
    ]);
    expect(record.events).toEqual([
      {
        type: "usage",
        usage: {
          promptTokens: 3,
          completionTokens: 2,
          cachedTokens: 0,
          cacheWriteTokens: 0,
          reasoningTokens: 0,
        },
      },
    ]);
    // One when the relay starts (whatever the peek left), then one per read.
    expect(record.flushes()).toBe(3);
    expect(record.ends()).toBe(1);
  });

  it("relays a multi-byte character split across reads as the same bytes", () => {
    const { body } = upstream();
    const stream = new OpenAiEventStream(body, signals());
    const record = recorder();
    stream.relay(record.target);
    const bytes = Buffer.from(chunk("🎉", "stop"));
    const cut = bytes.indexOf(0xf0) + 2;
    body.push(bytes.subarray(0, cut));
    body.push(bytes.subarray(cut));
    body.finish();
    expect(record.seen).toEqual([bytes.toString("utf8", 6, bytes.length - 2)]);
    expect(record.events).toEqual([]);
  });

  it("gives the peeked first event back first, then the rest of its read as bytes", async () => {
    const { body } = upstream();
    const stream = new OpenAiEventStream(body, signals());
    body.push(Buffer.from(chunk("a") + chunk("b")));
    const iterator = stream[Symbol.asyncIterator]();
    const first = await iterator.next();
    expect(first.value?.type).toBe("raw");
    stream.unshift(first.value as StreamEvent);
    const record = recorder();
    stream.relay(record.target);
    expect(record.events.map((event) => event.type)).toEqual(["raw"]);
    expect(record.seen.map((text) => JSON.parse(text).choices[0].delta.content)).toEqual(["b"]);
  });

  it("pauses the body while the client is full and reads on after resume", () => {
    const { body, state } = upstream();
    const stream = new OpenAiEventStream(body, signals());
    let room = false;
    const record = recorder(() => room);
    stream.relay(record.target);
    body.push(Buffer.from(chunk("a")));
    expect(state.paused).toBe(true);
    room = true;
    stream.resume();
    expect(state.paused).toBe(false);
  });

  it("ends a stream closed before any choice finished with an error event", () => {
    const { body } = upstream();
    const stream = new OpenAiEventStream(body, signals());
    const record = recorder();
    stream.relay(record.target);
    body.push(Buffer.from(chunk("a")));
    body.finish();
    expect(record.events).toEqual([
      { type: "error", message: "the provider closed the stream before finishing", code: "protocol" },
    ]);
    expect(record.ends()).toBe(1);
  });

  it("reports a body that breaks mid-stream as an error event, and a malformed usage as malformed", () => {
    const broken = upstream();
    const record = recorder();
    new OpenAiEventStream(broken.body, signals()).relay(record.target);
    broken.body.push(Buffer.from(chunk("a")));
    broken.body.fail(Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" }));
    expect(record.events).toEqual([{ type: "error", message: "other side closed", code: "connect" }]);
    expect(record.ends()).toBe(1);

    const malformed = upstream();
    const second = recorder();
    new OpenAiEventStream(malformed.body, signals()).relay(second.target);
    malformed.body.push(Buffer.from(`data: {"choices":[{"delta":{}}],"usage":{"prompt_tokens":"x"}}\n\n`));
    expect(second.seen).toEqual([]);
    expect(second.events).toEqual([
      { type: "error", message: "the provider sent a malformed stream chunk", code: "protocol" },
    ]);
  });
});
