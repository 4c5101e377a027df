import { Tiktoken } from "js-tiktoken/lite";
import o200k from "js-tiktoken/ranks/o200k_base";
import { describe, expect, it } from "vitest";
import { BpeCounter } from "./bpe-counter.js";

const SAMPLES = [
  "Hello world",
  "<|endoftext|> and <|endofprompt|> are plain text here",
  "Ünïcödé, 日本語のテキスト, emoji 👩‍👩‍👧‍👦 and 🇫🇷, Ελληνικά, العربية",
  "function add(a: number, b: number): number {\n\treturn a + b; // sum\n}\n\n\n",
  "   leading and trailing spaces   \r\n\r\nnumbers 1234567 3.14159 -42 1e10",
  "It's, they're, we've, I'm, you'll, he'd — 'quoted' \"double\"",
  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
  `${"x".repeat(3)}\u0000\u0001\u007f${"zxqvjk".repeat(20)}`,
  JSON.stringify([{ type: "function", function: { name: "get_weather", parameters: { type: "object" } } }]),
];

describe("BpeCounter", () => {
  const reference = new Tiktoken(o200k);
  const counter = new BpeCounter(o200k);

  it("counts exactly as js-tiktoken's o200k encoder (special tokens as plain text)", () => {
    for (const text of SAMPLES) expect(counter.count(text), text).toBe(reference.encode(text, [], []).length);
  });

  it("counts random byte soup as js-tiktoken does", () => {
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed;
    };
    for (let round = 0; round < 200; round++) {
      const codes = Array.from({ length: 1 + (next() % 60) }, () => {
        const pick = next() % 4;
        if (pick === 0) return 0x20 + (next() % 95);
        if (pick === 1) return 0xa0 + (next() % 0x2000);
        if (pick === 2) return 0x4e00 + (next() % 0x500);
        return [0x0a, 0x0d, 0x09, 0x20][next() % 4] as number;
      });
      const text = String.fromCodePoint(...codes);
      expect(counter.count(text), JSON.stringify(text)).toBe(reference.encode(text, [], []).length);
    }
  });

  it("counts nothing for an empty text", () => {
    expect(counter.count("")).toBe(0);
  });

  it("counts one very long word in linear-ish time, exactly (a quadratic merge was a one-request DoS)", () => {
    for (const unit of ["x", "é", "😀", "ab"]) {
      const word = unit.repeat(300);
      expect(counter.count(word), unit).toBe(reference.encode(word, [], []).length);
    }
    const started = performance.now();
    counter.count("x".repeat(200_000));
    counter.count("é".repeat(100_000));
    // Was minutes; the heap merge takes well under a second on a loaded machine.
    expect(performance.now() - started).toBeLessThan(5_000);
  }, 30_000);
});
