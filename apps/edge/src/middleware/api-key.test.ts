import { GatewayError, INVALID_KEY_MESSAGE, MISSING_AUTH_MESSAGE } from "@gw/errors";
import type { Request } from "express";
import { describe, expect, it } from "vitest";
import { resolverFor, testKey } from "../test/principals.js";
import { resolveApiKey } from "./api-key.js";

const bearer = testKey("acct-bearer");
const header = testKey("acct-header");
const query = testKey("acct-query");
const management = testKey("acct-admin", { management: true });
const disabled = testKey("acct-x", { disabled: true });
const expired = testKey("acct-x", { expiresAt: new Date("2020-01-01T00:00:00Z") });
const resolver = resolverFor([bearer, header, query, management, disabled, expired]);

function request(headers: Record<string, string>, queryString: Record<string, string> = {}): Request {
  return { headers, query: queryString } as unknown as Request;
}

async function failure(promise: Promise<unknown>): Promise<GatewayError> {
  const error = await promise.catch((caught: unknown) => caught);
  if (!(error instanceof GatewayError)) throw new Error("expected a GatewayError");
  return error;
}

describe("resolveApiKey", () => {
  it("takes Authorization: Bearer before X-Api-Key before x-goog-api-key before ?key=", async () => {
    const all = request(
      {
        authorization: `Bearer ${bearer.secret}`,
        "x-api-key": header.secret,
        "x-goog-api-key": query.secret,
      },
      { key: query.secret },
    );
    expect((await resolveApiKey(resolver, all)).accountId).toBe("acct-bearer");
    const noBearer = request(
      { "x-api-key": header.secret, "x-goog-api-key": query.secret },
      { key: query.secret },
    );
    expect((await resolveApiKey(resolver, noBearer)).accountId).toBe("acct-header");
    expect((await resolveApiKey(resolver, request({ "x-goog-api-key": query.secret }))).accountId).toBe(
      "acct-query",
    );
    expect((await resolveApiKey(resolver, request({}, { key: query.secret }))).accountId).toBe("acct-query");
  });

  it("answers a missing or malformed Authorization with the spec's 401 message", async () => {
    const attempts: Record<string, string>[] = [
      {},
      { authorization: "Basic abc" },
      { authorization: "Bearer" },
    ];
    for (const headers of attempts) {
      const error = await failure(resolveApiKey(resolver, request(headers)));
      expect([error.status, error.type, error.message]).toEqual([
        401,
        "authentication_error",
        MISSING_AUTH_MESSAGE,
      ]);
    }
  });

  it("answers unknown, disabled and expired keys with 401 invalid api key and the reason in code", async () => {
    const unknown = await failure(
      resolveApiKey(resolver, request({ authorization: `Bearer lr_live_${"f".repeat(48)}` })),
    );
    const off = await failure(
      resolveApiKey(resolver, request({ authorization: `Bearer ${disabled.secret}` })),
    );
    const old = await failure(
      resolveApiKey(resolver, request({ authorization: `Bearer ${expired.secret}` })),
    );
    for (const error of [unknown, off, old])
      expect([error.status, error.message]).toEqual([401, INVALID_KEY_MESSAGE]);
    expect([unknown.code, off.code, old.code]).toEqual(["key_not_found", "key_disabled", "key_expired"]);
  });

  it("refuses a management key on inference with 403", async () => {
    const error = await failure(
      resolveApiKey(resolver, request({ authorization: `Bearer ${management.secret}` })),
    );
    expect([error.status, error.type]).toEqual([403, "permission_error"]);
  });
});
