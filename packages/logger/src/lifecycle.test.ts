import { afterEach, describe, expect, it, vi } from "vitest";
import { silentLogger } from "./index.js";
import { stopOnSignals } from "./lifecycle.js";

afterEach(() => {
  vi.restoreAllMocks();
  process.removeAllListeners("SIGTERM");
  process.removeAllListeners("SIGINT");
});

function exits() {
  const codes: number[] = [];
  vi.spyOn(process, "exit").mockImplementation(((code?: number) => {
    codes.push(code ?? 0);
  }) as typeof process.exit);
  return codes;
}

describe("stopOnSignals", () => {
  it("stops once on the first signal, ignores a second one meanwhile, and exits 0", async () => {
    const codes = exits();
    let stops = 0;
    let finish: () => void = () => {};
    stopOnSignals(silentLogger(), () => {
      stops++;
      return new Promise<void>((resolve) => {
        finish = resolve;
      });
    });
    process.emit("SIGTERM");
    process.emit("SIGINT");
    expect(stops).toBe(1);
    expect(codes).toEqual([]);
    finish();
    await vi.waitFor(() => expect(codes).toEqual([0]));
  });

  it("exits 1 when stopping fails", async () => {
    const codes = exits();
    stopOnSignals(silentLogger(), async () => {
      throw new Error("pool already closed");
    });
    process.emit("SIGINT");
    await vi.waitFor(() => expect(codes).toEqual([1]));
  });
});
