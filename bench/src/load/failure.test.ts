import { describe, expect, it } from "vitest";
import { failureReason } from "./failure.js";

describe("failureReason", () => {
  it("names the gateway's reason and message from its error envelope", () => {
    const body = JSON.stringify({
      error: {
        message: "billing service is unavailable",
        type: "service_unavailable",
        code: 503,
        metadata: { reason: "dependency_unavailable" },
      },
    });
    expect(failureReason(503, body)).toBe("HTTP 503 dependency_unavailable: billing service is unavailable");
  });

  it("keeps the message of an error without a reason", () => {
    const body = JSON.stringify({ error: { message: "rate limit exceeded", type: "rate_limit_error" } });
    expect(failureReason(429, body)).toBe("HTTP 429 rate limit exceeded");
  });

  it("reads Portkey's top-level failure message", () => {
    expect(failureReason(500, '{"status":"failure","message":"Something went wrong"}')).toBe(
      "HTTP 500 Something went wrong",
    );
  });

  it("quotes the start of a body that is not JSON, and the bare status of an empty one", () => {
    expect(failureReason(502, "<html>\n  Bad   gateway</html>")).toBe("HTTP 502 <html> Bad gateway</html>");
    expect(failureReason(504, "")).toBe("HTTP 504");
  });
});
