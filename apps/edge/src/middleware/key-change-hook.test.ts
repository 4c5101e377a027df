import type { IncomingMessage } from "node:http";
import { PrincipalResolver } from "@gw/auth";
import { describe, expect, it } from "vitest";
import { dropChangedKey } from "./key-change-hook.js";

const HASH = "ab".repeat(32);

function recorder() {
  const dropped: string[] = [];
  const resolver = new PrincipalResolver(async () => ({ cacheTtlMs: 0 }));
  resolver.invalidate = (hash: string) => {
    dropped.push(hash);
  };
  return { hook: dropChangedKey(resolver), dropped };
}

const request = (method: string, url: string) => ({ method, url }) as IncomingMessage;

describe("dropChangedKey", () => {
  it("drops the key a successful PATCH or DELETE changed", () => {
    const { hook, dropped } = recorder();
    hook(request("PATCH", `/api/v1/keys/${HASH}`), 200);
    hook(request("DELETE", `/api/v1/keys/${HASH}?x=1`), 200);
    expect(dropped).toEqual([HASH, HASH]);
  });

  it("drops the management key a successful revocation or rotation ended", () => {
    const { hook, dropped } = recorder();
    hook(request("DELETE", `/api/v1/management-keys/${HASH}`), 200);
    hook(request("POST", `/api/v1/management-keys/${HASH}/rotate`), 201);
    expect(dropped).toEqual([HASH, HASH]);
  });

  it("ignores a refused revocation, a listing, and a POST that is not a rotation", () => {
    const { hook, dropped } = recorder();
    hook(request("DELETE", `/api/v1/management-keys/${HASH}`), 400);
    hook(request("GET", "/api/v1/management-keys"), 200);
    hook(request("POST", `/api/v1/management-keys/${HASH}`), 200);
    hook(request("DELETE", `/api/v1/management-keys/${HASH}/rotate`), 200);
    hook(request("POST", `/api/v1/keys/${HASH}`), 201);
    expect(dropped).toEqual([]);
  });

  it("ignores reads, failures and other paths", () => {
    const { hook, dropped } = recorder();
    hook(request("GET", `/api/v1/keys/${HASH}`), 200);
    hook(request("PATCH", `/api/v1/keys/${HASH}`), 404);
    hook(request("PATCH", "/api/v1/keys/not-a-hash"), 200);
    hook(request("DELETE", `/api/v1/byok/${HASH}`), 200);
    expect(dropped).toEqual([]);
  });
});
