import { randomBytes } from "node:crypto";
import { hashSecret, KEY_PREFIXES, type KeyKind } from "@gw/auth";

export interface NewSecret {
  /** The plaintext: returned to the caller exactly once, never stored or logged. */
  secret: string;
  hash: string;
  label: string;
}

/** `lr_mgmt_`/`lr_live_` + 48 lowercase hex (24 random bytes); only the sha256 hex is kept. */
export function generateSecret(kind: KeyKind): NewSecret {
  const secret = `${KEY_PREFIXES[kind]}${randomBytes(24).toString("hex")}`;
  return { secret, hash: hashSecret(secret), label: maskSecret(secret) };
}

/** prefix + first 3 + `...` + last 4: enough to recognise a key, far too little to use it. */
export function maskSecret(secret: string): string {
  const prefix = Object.values(KEY_PREFIXES).find((candidate) => secret.startsWith(candidate)) ?? "";
  const body = secret.slice(prefix.length);
  return `${prefix}${body.slice(0, 3)}...${body.slice(-4)}`;
}
