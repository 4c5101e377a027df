import { describeErrorBody, readErrorText } from "../error-body.js";
import { httpFailure, type UpstreamFailure } from "../failure.js";
import type { UpstreamResponse } from "../http.js";

/**
 * Bedrock's exceptions (API reference, InvokeModel / Converse "Errors") as the gateway's failure
 * classes. The status is what failure.ts acts on, so each is mapped to the status that means the same
 * there: a request error stays the caller's 400 and is final; throttling and a model not ready are 429
 * and an unavailable service 503 (retryable, the next endpoint is tried, as for Anthropic's 429/529);
 * a refused credential stays 403 (the gateway's provider credential failed: retried elsewhere, a 502 if
 * nothing is left, the provider's message kept out of the answer).
 */
const STATUS_BY_EXCEPTION: Readonly<Record<string, number>> = {
  ValidationException: 400,
  AccessDeniedException: 403,
  UnrecognizedClientException: 403,
  InvalidSignatureException: 403,
  MissingAuthenticationTokenException: 403,
  ExpiredTokenException: 403,
  ResourceNotFoundException: 404,
  ModelTimeoutException: 408,
  ModelErrorException: 424,
  ThrottlingException: 429,
  ModelNotReadyException: 429,
  // Bedrock answers 400 for an account quota, but it is a limit like throttling, not a bad request.
  ServiceQuotaExceededException: 429,
  InternalServerException: 500,
  ServiceUnavailableException: 503,
  ModelStreamErrorException: 424,
};

/** `ValidationException:http://internal.amazon.com/coral/...` → `ValidationException`. */
export function exceptionName(header: unknown): string | undefined {
  const text = Array.isArray(header) ? header[0] : header;
  if (typeof text !== "string" || text === "") return undefined;
  return text.split(":")[0]?.trim() || undefined;
}

/** One Bedrock exception, from a response or a stream's exception event, as a failure. */
export function bedrockFailure(
  exception: string | undefined,
  status: number,
  message: string,
): UpstreamFailure {
  const mapped = (exception && STATUS_BY_EXCEPTION[exception]) || status;
  // "Input is too long for requested model." and the like: the prompt does not fit, try the next model.
  const code =
    exception === "ValidationException" && /too long|too many (input )?tokens|context/i.test(message)
      ? "context_length_exceeded"
      : exception;
  return httpFailure(mapped, message || `Bedrock answered HTTP ${status}`, code);
}

/** A non-2xx Bedrock answer: the exception name from `x-amzn-ErrorType`, the message from `{message}`. */
export async function readBedrockFailure(response: UpstreamResponse): Promise<UpstreamFailure> {
  const text = await readErrorText(response);
  if (typeof text !== "string") return text;
  const { message, code } = describeErrorBody(text);
  const exception = exceptionName(response.headers["x-amzn-errortype"]) ?? code;
  return bedrockFailure(exception, response.status, message);
}
