import { randomBytes } from "node:crypto";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** Random ids in each provider's style (`chatcmpl-…`, `msg_01…`, `toolu_01…`, `req_…`). */
export function randomId(prefix: string, length: number, alphabet: string = BASE62): string {
  const bytes = randomBytes(length);
  let out = prefix;
  for (const byte of bytes) out += alphabet[byte % alphabet.length];
  return out;
}

export function hexId(prefix: string, bytes: number): string {
  return `${prefix}${randomBytes(bytes).toString("hex")}`;
}
