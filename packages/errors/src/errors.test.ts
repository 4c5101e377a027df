import { describe, expect, it } from "vitest";
import {
  anthropicErrorBody,
  GatewayError,
  geminiErrorBody,
  openAiErrorBody,
  toGatewayError,
} from "./index.js";

describe("error catalogue", () => {
  it("renders the gateway envelope with code and metadata", () => {
    const error = new GatewayError("payment_required", "insufficient credits", {
      code: "insufficient_credits",
      metadata: { limit_source: "account" },
    });
    expect(error.status).toBe(402);
    expect(openAiErrorBody(error)).toEqual({
      error: {
        message: "insufficient credits",
        type: "payment_required",
        code: "insufficient_credits",
        metadata: { limit_source: "account" },
      },
    });
  });

  it("renders Anthropic and Gemini shapes for the same error", () => {
    const error = new GatewayError("payment_required", "no credits");
    expect(anthropicErrorBody(error, "req_1")).toEqual({
      type: "error",
      error: { type: "billing_error", message: "no credits" },
      request_id: "req_1",
    });
    expect(geminiErrorBody(error).error).toMatchObject({ code: 402, status: "FAILED_PRECONDITION" });
  });

  it("hides unknown errors behind a generic 500", () => {
    const wrapped = toGatewayError(new Error("db password is hunter2"));
    expect(wrapped.status).toBe(500);
    expect(wrapped.message).toBe("internal error");
  });
});
