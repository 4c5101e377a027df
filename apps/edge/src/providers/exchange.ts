import { UntranslatableError } from "../translate/untranslatable.js";
import { readFailure } from "./error-body.js";
import { httpFailure, networkFailure, type UpstreamFailure } from "./failure.js";
import {
  type AttemptSignals,
  classifyError,
  isFailure,
  type UpstreamHttp,
  type UpstreamResponse,
} from "./http.js";
import {
  type CanonicalCompletion,
  type ChatCall,
  type ChatResult,
  isRelayable,
  type StreamEvent,
} from "./types.js";

export interface WireRequest {
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** How one wire format is spoken: the request to send and how to read either kind of answer. */
export interface WireDialect {
  request(call: ChatCall): WireRequest;
  parse(json: unknown): CanonicalCompletion | UpstreamFailure;
  events(body: AsyncIterable<Uint8Array>, signals: AttemptSignals): AsyncIterable<StreamEvent>;
}

type Sent =
  | { ok: true; response: UpstreamResponse; signals: AttemptSignals }
  | { ok: false; failure: UpstreamFailure };

/**
 * Builds and sends one upstream request: a request the format cannot express is a 400 naming what and
 * why (never sent); no answer or a non-2xx answer is read into a failure.
 */
export async function sendWire(
  http: UpstreamHttp,
  build: () => WireRequest,
  client: AbortSignal,
): Promise<Sent> {
  let wire: WireRequest;
  try {
    wire = build();
  } catch (error) {
    if (error instanceof UntranslatableError)
      return { ok: false, failure: httpFailure(400, error.message, "untranslatable_request") };
    throw error;
  }
  const signals = http.signals(client);
  const response = await http.send({ method: "POST", ...wire }, signals);
  if (isFailure(response)) return { ok: false, failure: response };
  if (response.status < 200 || response.status >= 300)
    return { ok: false, failure: await readFailure(response) };
  return { ok: true, response, signals };
}

/** A 2xx JSON body, parsed by the dialect; a malformed one is the provider's failure (it fails over). */
export async function readAnswer<T>(
  sent: Extract<Sent, { ok: true }>,
  parse: (json: unknown) => T | UpstreamFailure,
): Promise<{ ok: true; value: T } | { ok: false; failure: UpstreamFailure }> {
  let json: unknown;
  try {
    json = await sent.response.body.json();
  } catch (error) {
    return { ok: false, failure: classifyError(error, sent.signals) };
  }
  const value = parse(json);
  if (typeof value === "object" && value !== null && "retryable" in value)
    return { ok: false, failure: value as UpstreamFailure };
  return { ok: true, value: value as T };
}

/** One chat call over a provider's pool, shared by every adapter; a stream must really be an event stream. */
export async function exchangeChat(
  http: UpstreamHttp,
  dialect: WireDialect,
  call: ChatCall,
): Promise<ChatResult> {
  const sent = await sendWire(http, () => withAccept(dialect.request(call), call.stream), call.signal);
  if (!sent.ok) return sent;
  const { response, signals } = sent;
  if (call.stream) {
    if (!String(response.headers["content-type"] ?? "").includes("text/event-stream")) {
      await response.body.dump().catch(() => undefined);
      return {
        ok: false,
        failure: networkFailure("protocol", "the provider did not answer with an event stream"),
      };
    }
    const events = dialect.events(response.body, signals);
    return {
      ok: true,
      stream: true,
      status: response.status,
      // A relayable stream reads its own body off when it stops.
      events: isRelayable(events) ? events : drainedAfter(events, response.body, signals),
    };
  }
  const answer = await readAnswer(sent, dialect.parse);
  if (!answer.ok) return answer;
  return { ok: true, stream: false, status: response.status, completion: answer.value };
}

// What is still read of a stream's body after its events stopped (normally only the chunked
// terminator after `[DONE]`); more than this and the body is destroyed instead.
const DRAIN_LIMIT_BYTES = 64 * 1024;

/**
 * The dialects stop at `[DONE]` (or an error event) before the body's own end has been read. Leaving
 * the loop would destroy the body, and Node builds an AbortError with a stack trace for that: about
 * 2.6% of the edge's CPU per streamed request. The body is iterated without destroy-on-return and
 * read off here instead, which also keeps the upstream connection reusable. A client that left has
 * already aborted the request (undici destroys the body), so nothing is read for it.
 */
async function* drainedAfter(
  events: AsyncIterable<StreamEvent>,
  body: UpstreamResponse["body"],
  signals: AttemptSignals,
): AsyncGenerator<StreamEvent> {
  try {
    yield* events;
  } finally {
    if (!signals.combined.aborted) body.dump({ limit: DRAIN_LIMIT_BYTES }).catch(() => undefined);
  }
}

function withAccept(wire: WireRequest, stream: boolean): WireRequest {
  return stream ? { ...wire, headers: { ...wire.headers, accept: "text/event-stream" } } : wire;
}
