import { GeminiChunkMapper } from "../../translate/gemini/to-openai.js";
import { type AttemptSignals, classifyError } from "../http.js";
import { SseParser } from "../sse.js";
import type { StreamEvent } from "../types.js";

/**
 * Gemini `alt=sse` frames → canonical stream events. Gemini sends no end marker: the stream is
 * complete once a candidate finished; usage is the last `usageMetadata` seen, reported at the end.
 */
export async function* geminiStreamEvents(
  body: AsyncIterable<Uint8Array>,
  signals: AttemptSignals,
): AsyncGenerator<StreamEvent> {
  const parser = new SseParser();
  const mapper = new GeminiChunkMapper();
  try {
    for await (const bytes of body) {
      for (const event of parser.push(bytes)) {
        const mapped = mapFrame(mapper, event.data);
        yield* mapped;
        if (mapped.some((entry) => entry.type === "error")) return;
      }
    }
    for (const event of parser.end()) yield* mapFrame(mapper, event.data);
    if (!mapper.finished) {
      yield { type: "error", message: "the provider closed the stream before finishing", code: "protocol" };
      return;
    }
    if (mapper.usage) yield { type: "usage", usage: mapper.usage };
  } catch (error) {
    const failure = classifyError(error, signals);
    if (failure.kind === "cancelled") return;
    yield { type: "error", message: failure.message, code: failure.kind };
  }
}

function mapFrame(mapper: GeminiChunkMapper, data: string): StreamEvent[] {
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(data) as Record<string, unknown>;
  } catch {
    return [{ type: "error", message: "the provider sent a malformed stream frame", code: "protocol" }];
  }
  const error = json.error as Record<string, unknown> | undefined;
  if (error)
    return [
      {
        type: "error",
        message:
          typeof error.message === "string" ? error.message : "the provider reported an error mid-stream",
        code: typeof error.status === "string" ? error.status : undefined,
      },
    ];
  const shown = mapper.searches;
  const events: StreamEvent[] = mapper.map(json).map((chunk) => ({ type: "chunk", chunk }));
  return mapper.searches > shown ? [...events, { type: "searches", count: mapper.searches }] : events;
}
