import { describe, expect, it } from "vitest";
import type { AttemptSignals } from "../http.js";
import type { StreamEvent } from "../types.js";
import { anthropicStreamEvents } from "./stream.js";

function signals(): AttemptSignals {
  const client = new AbortController().signal;
  const total = new AbortController().signal;
  return { client, total, combined: AbortSignal.any([client, total]) };
}

async function* bytes(text: string, size: number): AsyncGenerator<Uint8Array> {
  const encoded = new TextEncoder().encode(text);
  for (let offset = 0; offset < encoded.length; offset += size) yield encoded.subarray(offset, offset + size);
}

async function collect(text: string): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  for await (const event of anthropicStreamEvents(bytes(text, 11), signals())) events.push(event);
  return events;
}

const frame = (name: string, data: object) =>
  `event: ${name}\ndata: ${JSON.stringify({ type: name, ...data })}\n\n`;

const toolStream =
  frame("message_start", {
    message: {
      id: "msg_1",
      model: "claude-sonnet-4",
      content: [],
      usage: {
        input_tokens: 25,
        output_tokens: 1,
        cache_read_input_tokens: 5,
        cache_creation_input_tokens: 0,
      },
    },
  }) +
  frame("content_block_start", { index: 0, content_block: { type: "text", text: "" } }) +
  frame("ping", {}) +
  frame("content_block_delta", { index: 0, delta: { type: "text_delta", text: "Hello" } }) +
  frame("content_block_stop", { index: 0 }) +
  frame("content_block_start", {
    index: 1,
    content_block: { type: "tool_use", id: "toolu_1", name: "get_weather", input: {} },
  }) +
  frame("content_block_delta", { index: 1, delta: { type: "input_json_delta", partial_json: '{"city":' } }) +
  frame("content_block_delta", { index: 1, delta: { type: "input_json_delta", partial_json: '"Paris"}' } }) +
  frame("content_block_stop", { index: 1 }) +
  frame("message_delta", {
    delta: { stop_reason: "tool_use", stop_sequence: null },
    usage: { output_tokens: 40 },
  }) +
  frame("message_stop", {});

describe("anthropicStreamEvents (Anthropic events → OpenAI chunks golden)", () => {
  it("keeps the 1-hour cache writes that message_start reports by TTL (they are priced higher)", async () => {
    const events = await collect(
      frame("message_start", {
        message: {
          id: "m",
          usage: {
            input_tokens: 3,
            output_tokens: 1,
            cache_creation_input_tokens: 500,
            cache_creation: { ephemeral_5m_input_tokens: 100, ephemeral_1h_input_tokens: 400 },
          },
        },
      }) +
        frame("message_delta", { delta: { stop_reason: "end_turn" }, usage: { output_tokens: 2 } }) +
        frame("message_stop", {}),
    );
    expect(events.at(-1)).toMatchObject({
      type: "usage",
      usage: { promptTokens: 503, cacheWriteTokens: 500, cacheWriteLongTokens: 400 },
    });
  });

  it("maps the event sequence to role, content, tool-call and finish chunks, then merged usage", async () => {
    const events = await collect(toolStream);
    const deltas = events.flatMap((event) => (event.type === "chunk" ? [event.chunk.choices?.[0]] : []));
    expect(deltas).toEqual([
      { index: 0, delta: { role: "assistant", content: "" }, finish_reason: null },
      { index: 0, delta: { content: "Hello" }, finish_reason: null },
      {
        index: 0,
        delta: {
          tool_calls: [
            { index: 0, id: "toolu_1", type: "function", function: { name: "get_weather", arguments: "" } },
          ],
        },
        finish_reason: null,
      },
      {
        index: 0,
        delta: { tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] },
        finish_reason: null,
      },
      {
        index: 0,
        delta: { tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] },
        finish_reason: null,
      },
      { index: 0, delta: {}, finish_reason: "tool_calls" },
    ]);
    expect(events.every((event) => event.type !== "chunk" || event.chunk.id === "msg_1")).toBe(true);
    expect(events.at(-1)).toEqual({
      type: "usage",
      usage: {
        promptTokens: 30,
        completionTokens: 40,
        cachedTokens: 5,
        cacheWriteTokens: 0,
        reasoningTokens: 0,
      },
    });
  });

  it("ends with an error event on an in-band error or a stream cut before message_stop", async () => {
    const errored = await collect(
      frame("message_start", { message: { id: "m", usage: {} } }) +
        frame("error", { error: { type: "overloaded_error", message: "Overloaded" } }),
    );
    expect(errored.at(-1)).toEqual({ type: "error", message: "Overloaded", code: "overloaded_error" });
    const cut = await collect(frame("message_start", { message: { id: "m", usage: {} } }));
    expect(cut.at(-1)).toMatchObject({ type: "error", code: "protocol" });
  });
});

// docs.claude.com "Web search tool", "Streaming": the search is a server_tool_use block (its query as
// input_json_delta), then a web_search_tool_result block, then text blocks whose citations arrive as
// citations_delta before their text; message_delta's usage counts the searches.
const searchStream =
  frame("message_start", {
    message: {
      id: "msg_w",
      model: "claude-sonnet-4",
      content: [],
      usage: { input_tokens: 10, output_tokens: 1 },
    },
  }) +
  frame("content_block_start", {
    index: 0,
    content_block: { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: {} },
  }) +
  frame("content_block_delta", {
    index: 0,
    delta: { type: "input_json_delta", partial_json: '{"query":"q"}' },
  }) +
  frame("content_block_stop", { index: 0 }) +
  frame("content_block_start", {
    index: 1,
    content_block: {
      type: "web_search_tool_result",
      tool_use_id: "srvtoolu_1",
      content: [{ type: "web_search_result", url: "https://a.example/", title: "A", encrypted_content: "e" }],
    },
  }) +
  frame("content_block_stop", { index: 1 }) +
  frame("content_block_start", { index: 2, content_block: { type: "text", text: "" } }) +
  frame("content_block_delta", { index: 2, delta: { type: "text_delta", text: "Intro. " } }) +
  frame("content_block_stop", { index: 2 }) +
  frame("content_block_start", { index: 3, content_block: { type: "text", text: "", citations: [] } }) +
  frame("content_block_delta", {
    index: 3,
    delta: {
      type: "citations_delta",
      citation: {
        type: "web_search_result_location",
        url: "https://a.example/",
        title: "A",
        cited_text: "quoted",
        encrypted_index: "x",
      },
    },
  }) +
  frame("content_block_delta", { index: 3, delta: { type: "text_delta", text: "Cited " } }) +
  frame("content_block_delta", { index: 3, delta: { type: "text_delta", text: "claim." } }) +
  frame("content_block_stop", { index: 3 }) +
  frame("message_delta", {
    delta: { stop_reason: "end_turn", stop_sequence: null },
    usage: { output_tokens: 30, server_tool_use: { web_search_requests: 2 } },
  }) +
  frame("message_stop", {});

describe("anthropicStreamEvents with the web search tool", () => {
  it("streams a cited block's citations as url_citation annotations over its span, and counts the searches", async () => {
    const events = await collect(searchStream);
    const deltas = events.flatMap((event) =>
      event.type === "chunk" ? [event.chunk.choices?.[0]?.delta] : [],
    );
    const text = deltas.map((delta) => (typeof delta?.content === "string" ? delta.content : "")).join("");
    expect(text).toBe("Intro. Cited claim.");
    const annotated = deltas.filter((delta) => delta?.annotations !== undefined);
    expect(annotated).toEqual([
      {
        annotations: [
          {
            type: "url_citation",
            url_citation: {
              url: "https://a.example/",
              title: "A",
              content: "quoted",
              start_index: 7,
              end_index: 19,
            },
          },
        ],
      },
    ]);
    expect(text.slice(7, 19)).toBe("Cited claim.");
    const usage = events.find((event) => event.type === "usage");
    expect(usage?.type === "usage" && usage.usage.webSearches).toBe(2);
  });
});
