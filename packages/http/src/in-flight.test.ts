import type { Request, RequestHandler, Response } from "express";
import { describe, expect, it } from "vitest";
import { InFlight } from "./in-flight.js";

const call = (handler: RequestHandler): unknown => handler({} as Request, {} as Response, () => {});

describe("InFlight", () => {
  it("counts an async handler until it settles, and idle() resolves then", async () => {
    const inFlight = new InFlight();
    let finish: () => void = () => {};
    const handler = inFlight.track(() => new Promise<void>((resolve) => (finish = resolve)));
    const result = call(handler);
    expect(inFlight.count).toBe(1);
    let idle = false;
    const waiting = inFlight.idle(5_000).then((value) => {
      idle = value;
    });
    await Promise.resolve();
    expect(idle).toBe(false);
    finish();
    await waiting;
    expect(idle).toBe(true);
    expect(inFlight.count).toBe(0);
    await result;
  });

  it("passes a rejection on to Express unchanged and still stops counting it", async () => {
    const inFlight = new InFlight();
    const result = call(inFlight.track(async () => Promise.reject(new Error("boom"))));
    await expect(result).rejects.toThrow("boom");
    expect(await inFlight.idle(1_000)).toBe(true);
  });

  it("gives up waiting after the timeout", async () => {
    const inFlight = new InFlight();
    call(inFlight.track(() => new Promise<void>(() => {})));
    expect(await inFlight.idle(20)).toBe(false);
    expect(inFlight.count).toBe(1);
  });

  it("does not count a synchronous handler", () => {
    const inFlight = new InFlight();
    call(inFlight.track(() => {}));
    expect(inFlight.count).toBe(0);
  });
});
