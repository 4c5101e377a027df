import { GatewayError } from "@gw/errors";
import type { Response } from "express";
import { parseScannedChunk } from "../canonical/chunk-scan.js";
import { ZERO_COST } from "../canonical/cost.js";
import { normaliseFinishReason } from "../canonical/finish-reason.js";
import type { TokenUsage } from "../canonical/tokens.js";
import type { PlannedAttempt } from "../planning/plan.js";
import { finalError } from "../providers/failure.js";
import { isRelayable, type RelayableEvents, type StreamEvent } from "../providers/types.js";
import type { StreamRenderer } from "../translate/surface.js";
import { measure, unservedMeasure } from "../usage/measure.js";
import { type AdmittedChat, subjectOf } from "./admitted.js";
import { type AttemptsFailure, runAttempts } from "./attempts.js";
import type { EdgeContext } from "./edge-context.js";
import { attemptsMetadata, finishGeneration, identity } from "./finish-generation.js";
import { SseWriter } from "./sse-writer.js";
import { urlCitations } from "./web-citations.js";

interface Pumped {
  usage: TokenUsage | undefined;
  error: Extract<StreamEvent, { type: "error" }> | undefined;
  /** The provider's own searches the answer showed, billed on when no usage came. */
  searches: number;
}

/**
 * A streamed chat completion: chunks pass through as they arrive (rewritten, never buffered), the
 * stream always ends with our usage chunk and `[DONE]`. Metering runs just before that last chunk, so
 * a bus that persists in-process (the embedded default's outbox) has the usage before the client
 * sees the end.
 */
export async function respondStream(
  response: Response,
  chat: AdmittedChat,
  context: EdgeContext,
): Promise<void> {
  const writer = new SseWriter(response, context.settings.keepAliveMs, chat.surface.framing);
  writer.arm();
  const outcome = await runAttempts(
    {
      route: chat.route,
      request: chat.request,
      stream: true,
      signal: chat.signal,
      webSearch: chat.nativeWebSearch,
    },
    context,
  );
  if (!outcome.ok) return failStream(writer, chat, outcome, context);
  if (!outcome.served.stream) throw new Error("a streamed attempt produced a single body");
  const rewriter = chat.surface.stream(identity(chat.generationId, outcome.attempt, context.now()));
  const events = outcome.served.events;
  const pumped =
    isRelayable(events) && (rewriter.rawBytes || !rewriter.raw)
      ? await relayBytes(events, writer, rewriter)
      : await pump(events, writer, rewriter);
  const cancelled = writer.clientGone;
  const measured = await measure(pumped.usage, chat.prompt, () => rewriter.outputTexts(), pumped.searches);
  const broken = pumped.error ? streamFailure(pumped.error) : undefined;
  if (broken) await writer.write(rewriter.error(broken));
  else if (!cancelled) await writeCitations(writer, rewriter, chat);
  const nativeFinishReason = rewriter.finishReason();
  const { record, chargedPico } = finishGeneration(context, subjectOf(chat), {
    served: true,
    success: outcome,
    streamed: true,
    cancelled,
    measured,
    finishReason: pumped.error ? "error" : (normaliseFinishReason(nativeFinishReason) ?? "error"),
    nativeFinishReason,
    upstreamId: rewriter.upstreamId(),
    endedAt: context.now(),
    error: broken,
  });
  await context.meter.persisted();
  await writer.write(rewriter.end({ ...measured, cost: record.cost, chargedPico, isByok: record.isByok }));
  writer.end();
}

async function pump(
  events: AsyncIterable<StreamEvent>,
  writer: SseWriter,
  rewriter: StreamRenderer,
): Promise<Pumped> {
  const pumped: Pumped = { usage: undefined, error: undefined, searches: 0 };
  for await (const event of events) {
    if (writer.clientGone) break;
    if (event.type === "usage") {
      pumped.usage = event.usage;
      continue;
    }
    if (event.type === "searches") {
      pumped.searches = event.count;
      continue;
    }
    const frames = event.type === "error" ? undefined : render(event, rewriter);
    if (frames === undefined) {
      pumped.error = event.type === "error" ? event : MALFORMED_CHUNK;
      break;
    }
    if (frames) {
      const full = writer.write(frames);
      if (full) await full;
    }
  }
  return pumped;
}

/**
 * The byte relay: the provider's reads are pushed through (no promise or generator per read or
 * frame), each content frame is our envelope spliced in front of the provider's own bytes, and the
 * frames of one socket read leave in one write; a full socket pauses the upstream body until it
 * drains. A surface that translates (Anthropic, Gemini, Responses) gets each content frame parsed
 * and renders it, on the same push path.
 */
function relayBytes(events: RelayableEvents, writer: SseWriter, rewriter: StreamRenderer): Promise<Pumped> {
  return new Promise((resolve) => {
    const pumped: Pumped = { usage: undefined, error: undefined, searches: 0 };
    events.relay({
      raw: (bytes, start, text, scan) => {
        if (rewriter.rawBytes) {
          const out = writer.bytes();
          if (out) rewriter.rawBytes(bytes, start, text, scan, out);
          return;
        }
        // A surface that translates: the chunk parsed, rendered as its own events.
        const chunk = parseScannedChunk(bytes.toString("utf8", start, start + text.length));
        if (chunk === undefined) {
          pumped.error = MALFORMED_CHUNK;
          events.stop();
        } else {
          const frames = rewriter.chunk(chunk);
          if (frames) writer.write(frames);
        }
      },
      event: (event) => {
        if (event.type === "usage") pumped.usage = event.usage;
        else if (event.type === "searches") pumped.searches = event.count;
        else if (event.type === "error") pumped.error = event;
        else {
          const frames = render(event, rewriter);
          if (frames === undefined) {
            pumped.error = MALFORMED_CHUNK;
            events.stop();
          } else if (frames) writer.write(frames);
        }
      },
      flush: () => {
        if (writer.clientGone) {
          events.stop();
          return true;
        }
        if (!writer.full) return true;
        writer.afterDrain(() => events.resume());
        return false;
      },
      end: () => resolve(pumped),
    });
  });
}

const MALFORMED_CHUNK = {
  type: "error",
  message: "the provider sent a malformed stream chunk",
  code: "protocol",
} as const;

/** A content event's frames: a raw chunk relayed when the surface can, else parsed (undefined if it does not fit). */
function render(event: Extract<StreamEvent, { type: "chunk" | "raw" }>, rewriter: StreamRenderer) {
  if (event.type === "chunk") return rewriter.chunk(event.chunk);
  if (rewriter.raw) return rewriter.raw(event.data, event.scan);
  const chunk = parseScannedChunk(event.data);
  return chunk === undefined ? undefined : rewriter.chunk(chunk);
}

async function failStream(
  writer: SseWriter,
  chat: AdmittedChat,
  outcome: AttemptsFailure,
  context: EdgeContext,
): Promise<void> {
  const cancelled = outcome.failure.kind === "cancelled";
  const measured = await unservedMeasure(chat.prompt, cancelled, outcome.records.length > 0);
  const endedAt = context.now();
  finishGeneration(context, subjectOf(chat), {
    served: false,
    failure: outcome,
    streamed: true,
    measured,
    endedAt,
  });
  await context.meter.persisted();
  const error = finalError(outcome.failure, { attempts: attemptsMetadata(outcome.records) });
  if (cancelled) {
    writer.end();
    return;
  }
  if (!writer.headersSent) {
    // Nothing reached the client yet, not even a keep-alive: answer with a real status.
    writer.stop();
    throw error;
  }
  const attempt: PlannedAttempt | undefined = outcome.lastAttempt ?? chat.route.attempts[0];
  if (attempt) {
    const rewriter = chat.surface.stream(identity(chat.generationId, attempt, endedAt));
    await writer.write(rewriter.error(error));
    await writer.write(rewriter.end({ ...measured, cost: ZERO_COST, chargedPico: 0n, isByok: false }));
  }
  writer.end();
}

/**
 * A stream that broke after its first byte, as the error its in-band frame reports: the provider's
 * code (or our failure kind: timeout, network, protocol) kept as the reason each surface reads.
 */
function streamFailure(event: Extract<StreamEvent, { type: "error" }>): GatewayError {
  const kind = event.code === "timeout" ? "gateway_timeout" : "upstream";
  return new GatewayError(kind, event.message, event.code === undefined ? {} : { upstreamCode: event.code });
}

/**
 * The web plugin's citations on a streamed chat completion: one chunk after the content, before the
 * usage chunk, whose delta carries `annotations` (OpenRouter's `url_citation`) for each result the
 * streamed text cites. Offsets index the streamed output text as a whole (content, plus any reasoning
 * the provider streamed before it). The Anthropic and Gemini surfaces render the chunk their way
 * (`citations_delta`, `groundingMetadata`); the Responses and legacy completions surfaces ignore it.
 */
async function writeCitations(
  writer: SseWriter,
  rewriter: StreamRenderer,
  chat: AdmittedChat,
): Promise<void> {
  if (!chat.webResults?.length) return;
  const annotations = urlCitations(rewriter.outputTexts().join(""), chat.webResults);
  if (annotations.length === 0) return;
  await writer.write(
    rewriter.chunk({ choices: [{ index: 0, delta: { annotations }, finish_reason: null }] }),
  );
}
