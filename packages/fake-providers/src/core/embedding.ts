import { createHash } from "node:crypto";

/**
 * A deterministic unit vector for a text: seeded from the text's SHA-256, so equal inputs embed equally and
 * different inputs differ. Values are rounded to float32, so the float and base64 encodings carry exactly the
 * same numbers.
 */
export function embedText(text: string, dimensions: number): number[] {
  const seed = createHash("sha256").update(text).digest();
  let state = seed.readUInt32LE(0) ^ seed.readUInt32LE(4);
  const raw: number[] = [];
  for (let i = 0; i < dimensions; i++) {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    raw.push(((t ^ (t >>> 14)) >>> 0) / 4294967296 - 0.5);
  }
  const norm = Math.sqrt(raw.reduce((sum, v) => sum + v * v, 0)) || 1;
  return raw.map((v) => Math.fround(v / norm));
}

/** OpenAI's base64 embedding: the raw little-endian float32 bytes. */
export function float32Base64(values: readonly number[]): string {
  const buffer = Buffer.alloc(values.length * 4);
  values.forEach((v, i) => {
    buffer.writeFloatLE(v, i * 4);
  });
  return buffer.toString("base64");
}

export function decodeFloat32Base64(encoded: string): number[] {
  const buffer = Buffer.from(encoded, "base64");
  const values: number[] = [];
  for (let offset = 0; offset + 4 <= buffer.length; offset += 4) values.push(buffer.readFloatLE(offset));
  return values;
}
