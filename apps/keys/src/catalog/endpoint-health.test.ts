import { memoryLogger } from "@gw/logger";
import type { GetEndpointHealthResponse } from "@gw/proto/generations/v1/health";
import { afterEach, describe, expect, it } from "vitest";
import { type EndpointHealthSource, EndpointHealthView, STARTUP_GRACE_MS } from "./endpoint-health.js";

const ANSWER: GetEndpointHealthResponse = {
  version: "v1",
  notModified: false,
  endpoints: [],
  computedAtMs: 0n,
};

/** A source that fails while `down` is set, a logger that keeps its lines, and a hand-moved clock. */
function setup() {
  const state = { down: true, now: 1_000_000 };
  const memory = memoryLogger("info");
  const source: EndpointHealthSource = async () => {
    if (state.down) throw new Error("14 UNAVAILABLE: No connection established");
    return ANSWER;
  };
  /** Each line's level (40 warn, 30 info) and message. */
  const lines = () =>
    memory.lines().map((line) => {
      const { level, msg } = JSON.parse(line) as { level: number; msg: string };
      return { level: level === 40 ? "warn" : level === 30 ? "info" : String(level), message: msg };
    });
  const logger = memory.logger;
  const view = new EndpointHealthView(source, { refreshMs: 3_600_000, logger, now: () => state.now });
  return { state, lines, view };
}

describe("the endpoints view's health poll", () => {
  let stop: (() => Promise<void>) | undefined;
  afterEach(async () => stop?.());

  it("says nothing while generations is not up yet at start, then warns once if it stays down", async () => {
    const { state, lines, view } = setup();
    stop = () => view.stop();
    view.start();
    await view.refresh();
    state.now += STARTUP_GRACE_MS - 1;
    await view.refresh();
    expect(lines()).toEqual([]);
    state.now += 1;
    await view.refresh();
    await view.refresh();
    expect(lines()).toEqual([{ level: "warn", message: "endpoint health poll failed" }]);
  });

  it("warns at once about an outage after an answer, and says when it recovered", async () => {
    const { state, lines, view } = setup();
    stop = () => view.stop();
    state.down = false;
    view.start();
    await view.refresh();
    state.down = true;
    await view.refresh();
    expect(lines()).toEqual([{ level: "warn", message: "endpoint health poll failed" }]);
    state.down = false;
    await view.refresh();
    expect(lines().at(-1)).toEqual({ level: "info", message: "endpoint health poll recovered" });
  });
});
