/** What the fake upstream answers; kept tiny and fixed so every target moves the same bytes. */
export interface UpstreamSettings {
  /** Added before the response headers (the "fixed delay" variant); 0 = none. */
  delayMs: number;
  /** Content chunks in a stream before the usage chunk and [DONE]. */
  streamChunks: number;
  /** Pause between stream chunks; 0 writes them back to back (long-lived streams set it > 0). */
  chunkIntervalMs: number;
}

export const DEFAULT_SETTINGS: UpstreamSettings = { delayMs: 0, streamChunks: 5, chunkIntervalMs: 0 };

const USAGE = { prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 };
const CREATED = 1_700_000_000;

/** Serialised once: the upstream's own cost must not show up as gateway overhead. */
export function completionBody(model: string): Buffer {
  return Buffer.from(
    JSON.stringify({
      id: "chatcmpl-bench",
      object: "chat.completion",
      created: CREATED,
      model,
      choices: [
        {
          index: 0,
          message: { role: "assistant", content: "Hello from the bench.", refusal: null },
          logprobs: null,
          finish_reason: "stop",
        },
      ],
      usage: USAGE,
    }),
  );
}

function frame(value: unknown): Buffer {
  return Buffer.from(`data: ${JSON.stringify(value)}\n\n`);
}

function chunk(
  model: string,
  delta: Record<string, unknown>,
  finish: string | null,
): Record<string, unknown> {
  return {
    id: "chatcmpl-bench",
    object: "chat.completion.chunk",
    created: CREATED,
    model,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  };
}

/** Frames of a stream beside its content pieces: the role, finish, usage and [DONE] frames. */
export const FRAMES_BESIDE_CONTENT = 4;

/** The frames of one stream: role, `count` content pieces, finish, usage, [DONE]. */
export function streamFrames(model: string, count: number): Buffer[] {
  const frames = [frame(chunk(model, { role: "assistant", content: "" }, null))];
  for (let index = 0; index < count; index++) frames.push(frame(chunk(model, { content: "tok " }, null)));
  frames.push(frame(chunk(model, {}, "stop")));
  frames.push(frame({ ...chunk(model, {}, null), choices: [], usage: USAGE }));
  frames.push(Buffer.from("data: [DONE]\n\n"));
  return frames;
}
