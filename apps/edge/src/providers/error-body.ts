import { httpFailure, networkFailure, type UpstreamFailure } from "./failure.js";
import type { UpstreamResponse } from "./http.js";

const MAX_ERROR_BODY = 64 * 1024;

/**
 * Reads a non-2xx upstream answer into a failure. Providers disagree on the body (OpenAI and Anthropic
 * `{error: {message, type, code}}`, Gemini `{error: {message, status}}`, some hosts `{message}` or
 * `{detail}` or plain text), so every shape yields a message.
 */
export async function readFailure(response: UpstreamResponse): Promise<UpstreamFailure> {
  const text = await readErrorText(response);
  if (typeof text !== "string") return text;
  const { message, code } = describeErrorBody(text);
  const failure = httpFailure(response.status, message || `provider answered HTTP ${response.status}`, code);
  const detail = contentFilterDetail(text, code);
  return detail ? { ...failure, detail } : failure;
}

/** The first 64 KiB of an error answer's body, or the failure of reading it. */
export async function readErrorText(response: UpstreamResponse): Promise<string | UpstreamFailure> {
  try {
    return (await response.body.text()).slice(0, MAX_ERROR_BODY);
  } catch (error) {
    return networkFailure("protocol", error instanceof Error ? error.message : String(error));
  }
}

export function describeErrorBody(text: string): { message: string; code: string | undefined } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { message: text.trim().slice(0, 500), code: undefined };
  }
  const root = record(json);
  const error = record(root?.error);
  const message =
    stringOf(error?.message) ?? stringOf(root?.error) ?? stringOf(root?.message) ?? stringOf(root?.detail);
  const code =
    stringOf(error?.code) ?? stringOf(error?.type) ?? stringOf(error?.status) ?? stringOf(root?.code);
  return { message: message ?? text.trim().slice(0, 500), code };
}

/**
 * Azure OpenAI's refusal of a prompt by its content filter (code `content_filter`) carries the verdicts in
 * `error.innererror` (`{code: "ResponsibleAIPolicyViolation", content_filter_result: {...}}`): the caller's
 * own prompt judged, so it is relayed with the error rather than dropped.
 */
function contentFilterDetail(text: string, code: string | undefined): Record<string, unknown> | undefined {
  if (code !== "content_filter") return undefined;
  try {
    const inner = record(record(record(JSON.parse(text))?.error)?.innererror);
    return inner ? { content_filter: inner } : undefined;
  } catch {
    return undefined;
  }
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function stringOf(value: unknown): string | undefined {
  if (typeof value === "string" && value.length > 0) return value;
  if (typeof value === "number") return String(value);
  return undefined;
}
