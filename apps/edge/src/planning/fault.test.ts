import { describe, expect, it } from "vitest";
import { cancelledFailure, httpFailure, networkFailure, type UpstreamFailure } from "../providers/failure.js";
import { attemptFault, proxyAttemptFault } from "./fault.js";

// Whose fault a failed attempt was decides whether it counts against the endpoint's health: only the
// provider's does. A caller's bad request, the gateway's own bug, a client that left, or (on the
// account's own key) that key's refusal must not let one tenant mark a provider down for everyone.

const http = (status: number, message = "upstream said no", code?: string) =>
  httpFailure(status, message, code);

describe("attemptFault: a chat/embeddings attempt's failure", () => {
  it("a client that went away is nobody's fault, whatever else the failure says", () => {
    expect(attemptFault(cancelledFailure(), false)).toBe("cancelled");
    expect(attemptFault({ ...cancelledFailure(), gatewayFault: true }, true)).toBe("cancelled");
  });

  it("the gateway's own failure to make or read the call is the gateway's, even on a 5xx", () => {
    const adapterBug: UpstreamFailure = { ...networkFailure("protocol", "bad body"), gatewayFault: true };
    expect(attemptFault(adapterBug, false)).toBe("gateway");
    expect(attemptFault({ ...http(500), gatewayFault: true }, false)).toBe("gateway");
  });

  it("request errors that would fail the same way elsewhere (400, 413, 422) are the caller's", () => {
    for (const status of [400, 413, 422]) {
      expect(attemptFault(http(status), false)).toBe("caller");
      expect(attemptFault(http(status), true)).toBe("caller");
    }
  });

  it("a prompt too long for the model is the caller's, also under a status that would fall back", () => {
    const tooLong = http(404, "This model's maximum context length is 8192 tokens");
    expect(tooLong).toMatchObject({ retryable: true, contextLength: true });
    expect(attemptFault(tooLong, false)).toBe("caller");
  });

  it("connect errors, timeouts, malformed answers, 5xx and 408 are the provider's", () => {
    const failures = [
      networkFailure("connect", "refused"),
      networkFailure("timeout", "no answer"),
      networkFailure("protocol", "malformed"),
      http(500),
      http(502),
      http(503),
      http(408),
    ];
    for (const failure of failures) {
      expect(attemptFault(failure, false)).toBe("provider");
      expect(attemptFault(failure, true)).toBe("provider");
    }
  });

  it("on the gateway's own key, 401/402/403/429 are the provider's (our key, its limits)", () => {
    for (const status of [401, 402, 403, 429]) expect(attemptFault(http(status), false)).toBe("provider");
  });

  it("on the account's own key (BYOK), 401/402/403/429 say something about that key: the caller's", () => {
    for (const status of [401, 402, 403, 429]) expect(attemptFault(http(status), true)).toBe("caller");
    // Other retryable statuses stay the provider's on a BYOK key too.
    expect(attemptFault(http(404), true)).toBe("provider");
  });
});

describe("proxyAttemptFault: the provider proxy's one attempt, known by its status only", () => {
  it("a cancelled attempt is nobody's fault, whatever its status", () => {
    expect(proxyAttemptFault(500, true, false)).toBe("cancelled");
    expect(proxyAttemptFault(429, true, true)).toBe("cancelled");
  });

  it("no answer, a rate limit and any 5xx are the provider's", () => {
    for (const status of [0, 429, 500, 501, 502, 503, 599]) {
      expect(proxyAttemptFault(status, false, false)).toBe("provider");
    }
  });

  it("any other status is the caller's (the proxy forwards the caller's request as written)", () => {
    for (const status of [200, 400, 401, 403, 404, 413, 422, 428, 430, 499]) {
      expect(proxyAttemptFault(status, false, false)).toBe("caller");
    }
  });

  it("on the account's own key, its 401/402/403/429 are the caller's; its 5xx and silence the provider's", () => {
    for (const status of [401, 402, 403, 429]) expect(proxyAttemptFault(status, false, true)).toBe("caller");
    for (const status of [0, 500, 503]) expect(proxyAttemptFault(status, false, true)).toBe("provider");
  });
});
