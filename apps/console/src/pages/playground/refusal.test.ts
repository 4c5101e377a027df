import { describe, expect, it } from "vitest";
import type { ApiProblem } from "../../api/errors";
import { describeRefusal } from "./refusal";

const problem = (status: number, message: string, retryAfterSeconds?: number): ApiProblem => ({
  status,
  message,
  reason: undefined,
  field: undefined,
  retryAfterSeconds,
});

describe("describeRefusal", () => {
  it("keeps the API's message first and says the API key, not the session, is at fault on 401", () => {
    const text = describeRefusal(problem(401, "key disabled"));
    expect(text.startsWith("key disabled. The API key")).toBe(true);
    expect(text).toMatch(/API key was not accepted/);
    expect(text).not.toMatch(/sign in again/i);
  });

  it("points a 403 at the key's allow-lists", () => {
    expect(describeRefusal(problem(403, "model not allowed"))).toMatch(/allowed models/);
  });

  it("explains credits on 402 and the retry time on 429", () => {
    expect(describeRefusal(problem(402, "insufficient credits"))).toMatch(/credits are used up/);
    expect(describeRefusal(problem(429, "rate limited.", 30))).toMatch(
      /^rate limited\. A rate .* Try again in 30 seconds/,
    );
  });

  it("tells a key's own limit (quota_exceeded, limit_source key) from the account's credits", () => {
    const own = describeRefusal({
      ...problem(402, "this key's spending limit is used up"),
      reason: "quota_exceeded",
      limitSource: "key",
    });
    expect(own).toMatch(/key's credit limit is used up/);
    expect(own).not.toMatch(/account's credits are used up/);
    const account = describeRefusal({
      ...problem(402, "insufficient credits"),
      reason: "insufficient_credits",
      limitSource: "account",
    });
    expect(account).toMatch(/account's credits are used up/);
  });

  it("tells a management key it is not an API key", () => {
    const text = describeRefusal({
      ...problem(403, "this route needs an API key"),
      reason: "api_key_required",
    });
    expect(text).toMatch(/This is a management key/);
    expect(text).not.toMatch(/allowed models/);
  });

  it("adds nothing for a plain 400", () => {
    expect(describeRefusal(problem(400, "messages: required"))).toBe("messages: required");
  });
});
