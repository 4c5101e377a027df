import { describe, expect, it } from "vitest";
import { decodeFloat32Base64, embedText, float32Base64 } from "./embedding.js";

describe("embeddings", () => {
  it("are deterministic unit vectors that differ between texts", () => {
    const a = embedText("hello", 64);
    expect(a).toHaveLength(64);
    expect(embedText("hello", 64)).toEqual(a);
    expect(embedText("world", 64)).not.toEqual(a);
    const norm = Math.sqrt(a.reduce((s, v) => s + v * v, 0));
    expect(norm).toBeCloseTo(1, 5);
  });

  it("round-trip exactly through OpenAI's base64 float32 encoding", () => {
    const values = embedText("round trip", 1536);
    const encoded = float32Base64(values);
    expect(Buffer.from(encoded, "base64")).toHaveLength(1536 * 4);
    expect(decodeFloat32Base64(encoded)).toEqual(values);
  });
});
