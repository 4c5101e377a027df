import type { Dispatcher } from "undici";
import { describe, expect, it } from "vitest";
import { type BodySink, UpstreamBody } from "./upstream-body.js";

/** undici's controller as far as the body uses it: pause, resume and abort, recorded. */
function controller() {
  const state = { paused: false, aborted: undefined as Error | undefined };
  const value: Dispatcher.DispatchController = {
    get aborted() {
      return state.aborted !== undefined;
    },
    get paused() {
      return state.paused;
    },
    get reason() {
      return state.aborted ?? null;
    },
    abort(reason: Error) {
      state.aborted = reason;
    },
    pause() {
      state.paused = true;
    },
    resume() {
      state.paused = false;
    },
  };
  return { state, value };
}

function body() {
  const control = controller();
  let closes = 0;
  const upstream = new UpstreamBody(() => closes++);
  upstream.attach(control.value);
  return { upstream, control, closes: () => closes };
}

const bytes = (text: string) => Buffer.from(text, "utf8");

describe("UpstreamBody", () => {
  it("pulls every read in order, then closes once at the end", async () => {
    const { upstream, closes } = body();
    upstream.push(bytes("ab"));
    const text = upstream.text();
    upstream.push(bytes("cd"));
    upstream.finish();
    expect(await text).toBe("abcd");
    expect(closes()).toBe(1);
  });

  it("is not closed while delivered bytes are unread, so the total timeout still covers them", async () => {
    const { upstream, closes } = body();
    upstream.push(bytes("{}"));
    upstream.finish();
    expect(closes()).toBe(0);
    expect(await upstream.json()).toEqual({});
    expect(closes()).toBe(1);
  });

  it("stops reading from the socket when 64 KB sit unread, and reads again once they are taken", async () => {
    const { upstream, control } = body();
    upstream.push(Buffer.alloc(64 * 1024));
    expect(control.state.paused).toBe(true);
    const iterator = upstream[Symbol.asyncIterator]();
    await iterator.next();
    expect(control.state.paused).toBe(false);
  });

  it("pushes queued reads first, then each read as it comes, and pauses when the sink is full", () => {
    const { upstream, control, closes } = body();
    upstream.push(bytes("early"));
    const seen: string[] = [];
    let room = true;
    let ended = 0;
    const sink: BodySink = {
      data: (chunk) => {
        seen.push(chunk.toString());
        return room;
      },
      end: () => ended++,
      error: (error) => {
        throw error;
      },
    };
    upstream.relay(sink);
    room = false;
    upstream.push(bytes("late"));
    expect(control.state.paused).toBe(true);
    upstream.resume();
    expect(control.state.paused).toBe(false);
    upstream.finish();
    expect(seen).toEqual(["early", "late"]);
    expect(ended).toBe(1);
    expect(closes()).toBe(1);
  });

  it("hands a failure to the reader waiting for the next read", async () => {
    const { upstream, closes } = body();
    const text = upstream.text();
    upstream.fail(new Error("socket hang up"));
    await expect(text).rejects.toThrow("socket hang up");
    expect(closes()).toBe(1);
  });

  it("drops unread bytes and fails when aborted after undici delivered the end", async () => {
    const { upstream, control } = body();
    upstream.push(bytes("{}"));
    upstream.finish();
    upstream.abort(new Error("total timeout"));
    // The request was already over: nothing to abort upstream.
    expect(control.state.aborted).toBeUndefined();
    await expect(upstream.text()).rejects.toThrow("total timeout");
  });

  it("reads the rest off for a dump, and aborts the request past the dump's limit", async () => {
    const small = body();
    small.upstream.push(bytes("rest"));
    const dumped = small.upstream.dump({ limit: 10 });
    expect(small.upstream.dump({ limit: 10 })).toBe(dumped);
    small.upstream.push(bytes("more"));
    small.upstream.finish();
    await dumped;
    expect(small.closes()).toBe(1);
    expect(small.control.state.aborted).toBeUndefined();

    const big = body();
    const bigDump = big.upstream.dump({ limit: 10 });
    big.upstream.push(Buffer.alloc(11));
    await expect(bigDump).rejects.toThrow("drain limit");
    expect(big.control.state.aborted).toBeDefined();
  });
});
