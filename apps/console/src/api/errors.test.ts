import { describe, expect, it } from "vitest";
import {
  adviceFor,
  describeProblem,
  parseRetryAfter,
  problemFromNetworkError,
  problemFromResponse,
  retryPhrase,
  SESSION_ENDED_MESSAGE,
} from "./errors";

const gatewayError = (status: number, message: string, metadata?: Record<string, unknown>) => ({
  error: { message, type: "x", code: status, ...(metadata ? { metadata } : {}) },
});

describe("problemFromResponse", () => {
  it("keeps the API's own message, reason and field", () => {
    const problem = problemFromResponse(
      400,
      new Headers(),
      gatewayError(400, "limit must be at most 1e12", { reason: "invalid_request", field: "limit" }),
    );
    expect(problem).toEqual({
      status: 400,
      message: "limit must be at most 1e12",
      reason: "invalid_request",
      field: "limit",
      retryAfterSeconds: undefined,
    });
  });

  it("reads Retry-After", () => {
    const problem = problemFromResponse(
      429,
      new Headers({ "retry-after": "17" }),
      gatewayError(429, "slow down"),
    );
    expect(problem.retryAfterSeconds).toBe(17);
  });

  it("describes an answer without the gateway's envelope by its status", () => {
    expect(problemFromResponse(502, new Headers(), "<html>").message).toBe(
      "The gateway answered 502 (bad gateway).",
    );
    expect(problemFromResponse(418, new Headers(), undefined).message).toBe("The gateway answered 418.");
  });

  it("takes a string error.code as the reason when there is no metadata.reason (Anthropic shape)", () => {
    const body = { error: { type: "permission_error", message: "no", code: "management_key_required" } };
    expect(problemFromResponse(403, new Headers(), body).reason).toBe("management_key_required");
  });
});

describe("parseRetryAfter", () => {
  const now = Date.parse("2026-11-23T12:00:00Z");
  it("reads delta-seconds", () => expect(parseRetryAfter(" 30 ", now)).toBe(30));
  it("reads an HTTP date", () => expect(parseRetryAfter("Mon, 23 Nov 2026 12:01:30 GMT", now)).toBe(90));
  it("a date in the past is now", () =>
    expect(parseRetryAfter("Mon, 23 Nov 2026 11:00:00 GMT", now)).toBe(0));
  it("ignores garbage and absence", () => {
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter("-5", now)).toBeUndefined();
  });
});

describe("advice", () => {
  const problem = (status: number, retryAfterSeconds?: number) => ({
    status,
    message: "The API's message.",
    reason: undefined,
    field: undefined,
    retryAfterSeconds,
  });

  it("401 says to sign in again", () => expect(adviceFor(problem(401))).toBe(SESSION_ENDED_MESSAGE));
  it("402 says how to add credits", () =>
    expect(adviceFor(problem(402))).toMatch(/credits are used up.*Add credits/));
  it("402 from the key's own limit says to raise the key's limit, not to add credits", () => {
    const text = adviceFor({ ...problem(402), reason: "quota_exceeded", limitSource: "key" });
    expect(text).toMatch(/key's credit limit is used up/);
    expect(text).not.toMatch(/Add credits/);
  });
  it("reads limit_source and problems from the answer's metadata", () => {
    const parsed = problemFromResponse(400, new Headers(), {
      error: {
        message: "the import was refused",
        code: 400,
        metadata: {
          reason: "invalid_catalog",
          limit_source: "key",
          problems: ["models[0].id: required", { path: "x", message: "bad" }],
        },
      },
    });
    expect(parsed.limitSource).toBe("key");
    expect(parsed.problems).toEqual(["models[0].id: required", "x: bad"]);
  });
  it("503 for an unconfigured BYOK says who must act, not to retry", () => {
    const text = adviceFor({ ...problem(503), reason: "byok_not_configured" });
    expect(text).toMatch(/operator sets BYOK_MASTER_KEY/);
    expect(text).not.toMatch(/Try again/);
  });
  it("429 says when to retry", () => {
    expect(describeProblem(problem(429, 30))).toBe(
      "The API's message. A rate or spend limit was reached. Try again in 30 seconds.",
    );
    expect(adviceFor(problem(429))).toBe("A rate or spend limit was reached. Try again in a moment.");
  });
  it("other statuses show the API's message alone", () => {
    expect(describeProblem(problem(400))).toBe("The API's message.");
    expect(describeProblem(problem(404))).toBe("The API's message.");
  });
  it("a network failure says the gateway was not reached", () => {
    expect(describeProblem(problemFromNetworkError(new TypeError("Failed to fetch")))).toBe(
      "The gateway could not be reached (Failed to fetch). Check your connection and try again.",
    );
  });
});

describe("retryPhrase", () => {
  it("scales its unit", () => {
    expect(retryPhrase(1)).toBe("Try again now.");
    expect(retryPhrase(45)).toBe("Try again in 45 seconds.");
    expect(retryPhrase(600)).toBe("Try again in 10 minutes.");
    expect(retryPhrase(4 * 3600)).toBe("Try again in 4 hours.");
  });
});
