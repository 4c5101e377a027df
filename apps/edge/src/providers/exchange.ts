import { UntranslatableError } from "../translate/untranslatable.js";
import { readFailure } from "./error-body.js";
import { httpFailure, networkFailure, type UpstreamFailure } from "./failure.js";
import { type AttemptSignals, classifyError, isFailure, type UpstreamHttp } from "./http.js";
import type { CanonicalCompletion, ChatCall, ChatResult, StreamEvent } from "./types.js";

/** How one wire format is spoken: the request to send and how to read either kind of answer. */
export interface WireDialect {
  request(call: ChatCall): { path: string; headers: Record<string, string>; body: string };
  parse(json: unknown): CanonicalCompletion | UpstreamFailure;
  events(body: AsyncIterable<Uint8Array>, signals: AttemptSignals): AsyncIterable<StreamEvent>;
}

/**
 * One chat call over a provider's pool, shared by every adapter: a request the format cannot express
 * is a 400 naming what and why (never sent); a non-2xx answer is read into a failure; a stream must
 * really be an event stream; a malformed body fails over.
 */
export async function exchangeChat(
  http: UpstreamHttp,
  dialect: WireDialect,
  call: ChatCall,
): Promise<ChatResult> {
  let wire: ReturnType<WireDialect["request"]>;
  try {
    wire = dialect.request(call);
  } catch (error) {
    if (error instanceof UntranslatableError)
      return { ok: false, failure: httpFailure(400, error.message, "untranslatable_request") };
    throw error;
  }
  const signals = http.signals(call.signal);
  const headers = call.stream ? { ...wire.headers, accept: "text/event-stream" } : wire.headers;
  const response = await http.send({ method: "POST", path: wire.path, headers, body: wire.body }, signals);
  if (isFailure(response)) return { ok: false, failure: response };
  if (response.status < 200 || response.status >= 300)
    return { ok: false, failure: await readFailure(response) };
  if (call.stream) {
    if (!String(response.headers["content-type"] ?? "").includes("text/event-stream")) {
      await response.body.dump().catch(() => undefined);
      return {
        ok: false,
        failure: networkFailure("protocol", "the provider did not answer with an event stream"),
      };
    }
    return {
      ok: true,
      stream: true,
      status: response.status,
      events: dialect.events(response.body, signals),
    };
  }
  let json: unknown;
  try {
    json = await response.body.json();
  } catch (error) {
    return { ok: false, failure: classifyError(error, signals) };
  }
  const completion = dialect.parse(json);
  if ("retryable" in completion) return { ok: false, failure: completion };
  return { ok: true, stream: false, status: response.status, completion };
}
