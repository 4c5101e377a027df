import { parseScannedChunk } from "../canonical/chunk-scan.js";
import type { ChunkWire, CompletionWire } from "../canonical/wire.js";
import type { ChatResult, StreamEvent } from "./types.js";

/**
 * OpenRouter's `reasoning.exclude: true` on a translated target: "the model will still use reasoning
 * internally, but it will not be returned in the response" (openrouter.ai/docs, Reasoning Tokens,
 * "Excluding reasoning tokens"). Anthropic has no such switch (thinking blocks always come back when
 * thinking is on), so the thinking runs and is metered (its tokens are in `output_tokens`) but its text
 * (`reasoning`, `reasoning_content`, text and summary `reasoning_details`) is taken out of the answer
 * and of every streamed chunk; a chunk left with nothing is not sent. Encrypted details carry no text.
 */
export function withoutThoughts(result: ChatResult): ChatResult {
  if (!result.ok) return result;
  if (!result.stream) {
    const body = result.completion.body;
    return { ...result, completion: { ...result.completion, body: completionWithout(body) } };
  }
  return { ...result, events: eventsWithout(result.events) };
}

type Json = Record<string, unknown>;
const TEXT_FIELDS = ["reasoning", "reasoning_content"];

function messageWithout<M extends Json>(message: M): { message: M; changed: boolean } {
  const out: Json = { ...message };
  let changed = false;
  for (const field of TEXT_FIELDS)
    if (field in out) {
      delete out[field];
      changed = true;
    }
  if (Array.isArray(out.reasoning_details)) {
    const kept = (out.reasoning_details as Json[]).filter((detail) => detail?.type === "reasoning.encrypted");
    changed ||= kept.length !== out.reasoning_details.length;
    if (kept.length > 0) out.reasoning_details = kept;
    else delete out.reasoning_details;
  }
  return { message: out as M, changed };
}

function completionWithout(body: CompletionWire): CompletionWire {
  return {
    ...body,
    choices: body.choices.map((choice) =>
      choice.message ? { ...choice, message: messageWithout(choice.message).message } : choice,
    ),
  };
}

/** The chunk without thought text; undefined when that leaves it with nothing for the client. */
function chunkWithout(chunk: ChunkWire): ChunkWire | undefined {
  let changed = false;
  const choices = chunk.choices?.map((choice) => {
    if (!choice.delta) return choice;
    const stripped = messageWithout(choice.delta);
    changed ||= stripped.changed;
    return { ...choice, delta: stripped.message };
  });
  if (!changed) return chunk;
  const empty = (choices ?? []).every(
    (choice) =>
      (choice.finish_reason === undefined || choice.finish_reason === null) &&
      Object.entries(choice.delta ?? {}).every(([name, value]) => name === "role" || value == null),
  );
  const { choices: _old, ...rest } = chunk;
  const others = Object.keys(rest).some((name) => !["id", "object", "created", "model"].includes(name));
  if (empty && !others) return undefined;
  return { ...chunk, choices };
}

async function* eventsWithout(events: AsyncIterable<StreamEvent>): AsyncGenerator<StreamEvent> {
  for await (const event of events) {
    if (event.type === "chunk") {
      const chunk = chunkWithout(event.chunk);
      if (chunk) yield chunk === event.chunk ? event : { type: "chunk", chunk };
    } else if (event.type === "raw") {
      // An OpenAI-format host's chunk, relayed unparsed elsewhere: parsed here to take the thoughts out.
      const parsed = parseScannedChunk(event.data);
      if (parsed === undefined) yield event;
      else {
        const chunk = chunkWithout(parsed);
        if (chunk === parsed) yield event;
        else if (chunk) yield { type: "chunk", chunk };
      }
    } else yield event;
  }
}
