import { describe, expect, it } from "vitest";
import {
  anthropicErrorBody,
  GatewayError,
  geminiErrorBody,
  openAiErrorBody,
  openAiStreamError,
  toGatewayError,
} from "./index.js";

describe("error catalogue", () => {
  it("renders OpenRouter's envelope: the status as a numeric code, the reason in metadata beside the rest", () => {
    const error = new GatewayError("payment_required", "insufficient credits", {
      code: "insufficient_credits",
      metadata: { limit_source: "account" },
    });
    expect(error.status).toBe(402);
    expect(openAiErrorBody(error)).toEqual({
      error: {
        message: "insufficient credits",
        type: "payment_required",
        code: 402,
        metadata: { limit_source: "account", reason: "insufficient_credits" },
      },
    });
  });

  it("names the catalogue code as the reason even when the metadata brought its own", () => {
    const error = new GatewayError("authentication", "invalid wallet token", {
      code: "jwt_expired",
      metadata: { reason: "something else" },
    });
    expect(openAiErrorBody(error).error).toEqual({
      message: "invalid wallet token",
      type: "authentication_error",
      code: 401,
      metadata: { reason: "jwt_expired" },
    });
  });

  it("leaves metadata out when there is neither a reason nor metadata", () => {
    expect(openAiErrorBody(new GatewayError("internal", "internal error"))).toEqual({
      error: { message: "internal error", type: "api_error", code: 500 },
    });
  });

  it("renders a failed stream's in-band error with OpenRouter's error type", () => {
    const error = new GatewayError("gateway_timeout", "the provider timed out", { upstreamCode: "timeout" });
    expect(openAiStreamError(error)).toEqual({
      message: "the provider timed out",
      type: "timeout_error",
      code: 504,
      metadata: { error_type: "timeout", reason: "timeout" },
    });
    expect(openAiStreamError(new GatewayError("upstream", "boom")).metadata).toEqual({
      error_type: "server",
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
