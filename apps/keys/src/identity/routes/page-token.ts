import { GatewayError } from "@gw/errors";

// Page tokens are opaque to clients; today they carry the next offset, which leaves room to switch to
// keyset pagination without changing the API.
const PREFIX = "o:";

export function encodePageToken(offset: number): string {
  return Buffer.from(`${PREFIX}${offset}`).toString("base64url");
}

export function decodePageToken(token: string): number {
  const text = Buffer.from(token, "base64url").toString("utf8");
  const offset = text.startsWith(PREFIX) ? Number(text.slice(PREFIX.length)) : Number.NaN;
  if (!Number.isSafeInteger(offset) || offset < 0) {
    throw new GatewayError("invalid_request", "page_token: not a token this API issued", {
      code: "invalid_request",
      metadata: { field: "page_token" },
    });
  }
  return offset;
}
