import { describe, expect, it } from "vitest";
import { cancelledFailure, finalError, httpFailure, networkFailure } from "./failure.js";

describe("upstream failures", () => {
  it.each([408, 429, 500, 502, 503, 504, 401, 404])("HTTP %i moves to the next attempt", (status) => {
    expect(httpFailure(status, "x", undefined).retryable).toBe(true);
  });

  it.each([400, 413, 422])("HTTP %i is the caller's error and does not", (status) => {
    expect(httpFailure(status, "bad", undefined).retryable).toBe(false);
  });

  it("recognises a context-length error, which moves to the next model", () => {
    expect(
      httpFailure(400, "This model's maximum context length is 8192 tokens", undefined).contextLength,
    ).toBe(true);
    expect(httpFailure(400, "x", "context_length_exceeded").contextLength).toBe(true);
    expect(httpFailure(400, "temperature too high", undefined).contextLength).toBe(false);
  });

  it("connect errors and timeouts are retryable; a client cancel is not", () => {
    expect(networkFailure("connect", "refused").retryable).toBe(true);
    expect(networkFailure("timeout", "slow").retryable).toBe(true);
    expect(cancelledFailure().retryable).toBe(false);
  });

  it("maps the last failure to the client's status", () => {
    expect(finalError(networkFailure("timeout", "slow"), {}).status).toBe(504);
    expect(finalError(networkFailure("connect", "refused"), {}).status).toBe(502);
    const overloaded = finalError(httpFailure(503, "overloaded", undefined), {});
    expect([overloaded.status, overloaded.type]).toEqual([502, "upstream_error"]);
    const limited = finalError(httpFailure(429, "slow down", undefined), {});
    expect([limited.status, limited.headers["Retry-After"]]).toEqual([429, "1"]);
    const rejected = finalError(httpFailure(400, "messages[0]: bad", "invalid_value"), {
      provider: "openai",
    });
    expect([rejected.status, rejected.message, rejected.code]).toEqual([
      400,
      "messages[0]: bad",
      "invalid_value",
    ]);
    expect(finalError(httpFailure(413, "too big", undefined), {}).status).toBe(413);
  });

  it("keeps provider-side messages about the gateway's own credentials out of client errors", () => {
    const error = finalError(
      httpFailure(401, "Incorrect API key provided: sk-proj-****abcd", "invalid_api_key"),
      {},
    );
    expect(error.status).toBe(502);
    expect(error.message).toBe("no provider could serve the request: the last one answered HTTP 401");
    expect(error.message).not.toContain("sk-");
  });
});
