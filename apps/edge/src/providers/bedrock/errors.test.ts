import { describe, expect, it } from "vitest";
import { finalError } from "../failure.js";
import { bedrockFailure, exceptionName } from "./errors.js";

describe("Bedrock's exceptions as the gateway's failure classes", () => {
  it("reads the exception's name from x-amzn-ErrorType", () => {
    expect(exceptionName("ThrottlingException:http://internal.amazon.com/coral/com.amazon.bedrock/")).toBe(
      "ThrottlingException",
    );
    expect(exceptionName(["ValidationException"])).toBe("ValidationException");
    expect(exceptionName(undefined)).toBeUndefined();
  });

  it("fails over on throttling, a model not ready and an unavailable service, as on Anthropic's 429/529", () => {
    for (const [name, status] of [
      ["ThrottlingException", 429],
      ["ModelNotReadyException", 429],
      ["ServiceQuotaExceededException", 429],
      ["ServiceUnavailableException", 503],
      ["InternalServerException", 500],
      ["ModelTimeoutException", 408],
    ] as const) {
      const failure = bedrockFailure(name, 400, "x");
      expect(failure, name).toMatchObject({ status, retryable: true, code: name });
    }
    expect(finalError(bedrockFailure("ThrottlingException", 429, "slow down"), {}).kind).toBe("rate_limit");
  });

  it("gives a ValidationException back to the caller as a final 400", () => {
    const failure = bedrockFailure("ValidationException", 400, "messages: bad");
    expect(failure).toMatchObject({ status: 400, retryable: false, contextLength: false });
    expect(finalError(failure, {})).toMatchObject({ kind: "invalid_request", message: "messages: bad" });
  });

  it("treats a prompt too long for the model as a context-length failure (the next model may fit it)", () => {
    const failure = bedrockFailure("ValidationException", 400, "Input is too long for requested model.");
    expect(failure).toMatchObject({ contextLength: true, code: "context_length_exceeded" });
  });

  it("treats a refused credential as the provider's failure: retried elsewhere, its message not shown", () => {
    for (const name of [
      "AccessDeniedException",
      "UnrecognizedClientException",
      "InvalidSignatureException",
    ]) {
      const failure = bedrockFailure(name, 403, "The security token included in the request is invalid.");
      expect(failure, name).toMatchObject({ status: 403, retryable: true });
      const error = finalError(failure, {});
      expect(error.kind, name).toBe("upstream");
      expect(error.message, name).not.toContain("security token");
    }
  });
});
