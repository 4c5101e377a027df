import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { DetachedTexts } from "./detached-texts.js";

// A full collection on demand, without starting vitest with --expose-gc.
setFlagsFromString("--expose-gc");
const collect = runInNewContext("gc") as () => void;

describe("DetachedTexts", () => {
  it("gives back every piece in order, copied out or still pending, and empties itself", () => {
    const texts = new DetachedTexts();
    const pieces = Array.from({ length: 19 }, (_, index) => `[{"delta":{"content":"é\\n${index} 🙂"}}]`);
    // A hostile upstream's raw NUL, and an empty piece, come back exactly as they went in.
    pieces[3] = '[{"delta":{"content":"a\u0000b"}}]';
    pieces[9] = "";
    for (const piece of pieces) texts.add(piece);
    expect(texts.drain()).toEqual(pieces);
    expect(texts.drain()).toEqual([]);
    texts.add("[]");
    expect(texts.drain()).toEqual(["[]"]);
  });

  it("does not keep the strings its slices were cut from alive", () => {
    const texts = new DetachedTexts();
    const parentBytes = 1 << 20;
    collect();
    const before = process.memoryUsage().heapUsed;
    for (let index = 0; index < 64; index++) {
      // A distinct 1 MiB parent each time; only a 20-character slice of it is kept.
      const parent = `${index}:`.padEnd(parentBytes, String.fromCharCode(97 + (index % 26)));
      texts.add(parent.slice(10, 30));
    }
    collect();
    const retained = process.memoryUsage().heapUsed - before;
    // Slices kept as they are would hold all 64 MiB; at most the pending group's parents remain.
    expect(retained).toBeLessThan(12 * parentBytes);
    expect(texts.drain()).toHaveLength(64);
  });
});
