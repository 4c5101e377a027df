import { GatewayError } from "@gw/errors";
import { describe, expect, it } from "vitest";
import { ZERO_COST } from "../../canonical/cost.js";
import type { UsageRender } from "../openai/usage.js";
import { decodeReasoningDetails } from "./reasoning-state.js";
import { responsesEcho } from "./request.js";
import { parseResponsesRequest } from "./request-schema.js";
import { renderResponse } from "./response.js";
import { ResponsesStreamRenderer } from "./stream.js";

type Event = Record<string, unknown> & { type: string; sequence_number: number };

const identity = { generationId: "gen-1", model: "openai/gpt-4o-mini", provider: "openai", created: 100 };
const usage: UsageRender = {
  usage: { promptTokens: 10, completionTokens: 5, cachedTokens: 2, cacheWriteTokens: 0, reasoningTokens: 1 },
  cost: { promptPico: 1_500_000n, completionPico: 3_000_000n, requestPico: 0n, totalPico: 4_500_000n },
  chargedPico: 4_500_000n,
  estimated: false,
  isByok: false,
};
const echo = (body: Record<string, unknown> = {}) =>
  responsesEcho(parseResponsesRequest({ model: "m", input: "x", ...body }));

function finalOutput(stream: Event[]): Array<Record<string, unknown>> {
  const last = stream.at(-1) as unknown as { response: { output: Array<Record<string, unknown>> } };
  return last.response.output;
}

/** Every `event:`/`data:` pair, checking that the event name matches the data's type. */
function events(text: string): Event[] {
  return text
    .split("\n\n")
    .filter(Boolean)
    .map((frame) => {
      const [name, data] = frame.split("\n");
      const event = JSON.parse((data ?? "").replace(/^data: /, "")) as Event;
      expect(name).toBe(`event: ${event.type}`);
      return event;
    });
}

describe("ResponsesStreamRenderer", () => {
  it("streams text in the documented event order, numbered from 0, ending with usage and cost", () => {
    const renderer = new ResponsesStreamRenderer(identity, echo());
    let text = renderer.chunk({
      id: "up-1",
      choices: [{ index: 0, delta: { role: "assistant", content: "Hel" } }],
    });
    text += renderer.chunk({ choices: [{ index: 0, delta: { content: "lo" }, finish_reason: "stop" }] });
    text += renderer.end(usage);
    const stream = events(text);
    expect(stream.map((event) => event.type)).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.content_part.added",
      "response.output_text.delta",
      "response.output_text.delta",
      "response.output_text.done",
      "response.content_part.done",
      "response.output_item.done",
      "response.completed",
    ]);
    expect(stream.map((event) => event.sequence_number)).toEqual(stream.map((_, index) => index));
    expect(stream[0]?.response).toMatchObject({
      id: "gen-1",
      object: "response",
      status: "in_progress",
      output: [],
    });
    expect(stream[4]).toMatchObject({
      item_id: "msg_gen-1",
      output_index: 0,
      content_index: 0,
      delta: "Hel",
    });
    expect(stream[6]).toMatchObject({ text: "Hello" });
    const completed = stream.at(-1)?.response as Record<string, unknown>;
    expect(completed).toMatchObject({
      status: "completed",
      model: "openai/gpt-4o-mini",
      provider: "openai",
      output: [
        {
          type: "message",
          id: "msg_gen-1",
          status: "completed",
          role: "assistant",
          content: [{ type: "output_text", text: "Hello", annotations: [] }],
        },
      ],
      usage: {
        input_tokens: 10,
        input_tokens_details: { cached_tokens: 2 },
        output_tokens: 5,
        output_tokens_details: { reasoning_tokens: 1 },
        total_tokens: 15,
        cost: 0.0000045,
        cost_details: {
          upstream_inference_cost: 0.0000045,
          upstream_inference_input_cost: 0.0000015,
          upstream_inference_output_cost: 0.000003,
        },
      },
      completed_at: 100,
      frequency_penalty: null,
      presence_penalty: null,
    });
    expect(stream[0]?.response).toHaveProperty("completed_at", null);
    expect(renderer.upstreamId()).toBe("up-1");
    expect(renderer.finishReason()).toBe("stop");
    expect(renderer.outputTexts()).toEqual(["Hel", "lo"]);
  });

  it("streams each tool call as a function_call item with argument deltas", () => {
    const renderer = new ResponsesStreamRenderer(identity, echo());
    let text = renderer.chunk({
      choices: [
        {
          index: 0,
          delta: {
            tool_calls: [{ index: 0, id: "call_1", function: { name: "get_weather", arguments: '{"ci' } }],
          },
        },
      ],
    });
    text += renderer.chunk({
      choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: 'ty":"Rome"}' } }] } }],
    });
    text += renderer.chunk({
      choices: [
        {
          index: 0,
          delta: { tool_calls: [{ index: 1, id: "call_2", function: { name: "t", arguments: "{}" } }] },
        },
      ],
    });
    text += renderer.chunk({ choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }] });
    text += renderer.end(usage);
    const stream = events(text);
    // Calls stay open until the answer moves on (their deltas may interleave), then end in order.
    expect(stream.map((event) => event.type).slice(2)).toEqual([
      "response.output_item.added",
      "response.function_call_arguments.delta",
      "response.function_call_arguments.delta",
      "response.output_item.added",
      "response.function_call_arguments.delta",
      "response.function_call_arguments.done",
      "response.output_item.done",
      "response.function_call_arguments.done",
      "response.output_item.done",
      "response.completed",
    ]);
    expect(stream[2]?.item).toMatchObject({
      type: "function_call",
      call_id: "call_1",
      name: "get_weather",
      arguments: "",
    });
    expect(stream[7]).toMatchObject({ arguments: '{"city":"Rome"}', name: "get_weather", output_index: 0 });
    const output = finalOutput(stream);
    expect(output).toEqual([
      {
        type: "function_call",
        id: "fc_gen-1_0",
        call_id: "call_1",
        name: "get_weather",
        arguments: '{"city":"Rome"}',
        status: "completed",
      },
      {
        type: "function_call",
        id: "fc_gen-1_1",
        call_id: "call_2",
        name: "t",
        arguments: "{}",
        status: "completed",
      },
    ]);
  });

  it("keeps parallel tool calls apart when their argument deltas interleave", () => {
    const renderer = new ResponsesStreamRenderer(identity, echo());
    const delta = (calls: Array<Record<string, unknown>>) => ({
      choices: [{ index: 0, delta: { tool_calls: calls } }],
    });
    let text = renderer.chunk(
      delta([
        { index: 0, id: "c0", function: { name: "a", arguments: '{"x"' } },
        { index: 1, id: "c1", function: { name: "b", arguments: '{"y"' } },
      ]),
    );
    text += renderer.chunk(delta([{ index: 0, function: { arguments: ":1}" } }]));
    text += renderer.chunk(delta([{ index: 1, function: { arguments: ":2}" } }]));
    const stream = events(text + renderer.end(usage));
    expect(stream.filter((event) => event.type === "response.output_item.added")).toHaveLength(2);
    const argumentsDone = stream.filter((event) => event.type === "response.function_call_arguments.done");
    expect(argumentsDone.map((event) => [event.output_index, event.arguments])).toEqual([
      [0, '{"x":1}'],
      [1, '{"y":2}'],
    ]);
    expect(finalOutput(stream).map((item) => [item.call_id, item.arguments])).toEqual([
      ["c0", '{"x":1}'],
      ["c1", '{"y":2}'],
    ]);
  });

  it("streams reasoning as a summary when the client asked for summaries, and not otherwise", () => {
    const chunk = { choices: [{ index: 0, delta: { reasoning: "thinking" } }] };
    const asked = new ResponsesStreamRenderer(
      identity,
      echo({ reasoning: { effort: "low", summary: "auto" } }),
    );
    const stream = events(
      asked.chunk(chunk) +
        asked.chunk({ choices: [{ index: 0, delta: { content: "ok" } }] }) +
        asked.end(usage),
    );
    expect(stream.map((event) => event.type)).toContain("response.reasoning_summary_text.delta");
    const output = finalOutput(stream);
    expect(output[0]).toEqual({
      type: "reasoning",
      id: "rs_gen-1",
      summary: [{ type: "summary_text", text: "thinking" }],
    });
    expect(output[1]?.type).toBe("message");
    const silent = new ResponsesStreamRenderer(identity, echo());
    expect(events(silent.chunk(chunk) + silent.end(usage)).map((event) => event.type)).not.toContain(
      "response.reasoning_summary_text.delta",
    );
  });

  it("hands the provider's reasoning state back in a reasoning item's encrypted_content, fragments merged", () => {
    const format = "anthropic-claude-v1";
    const renderer = new ResponsesStreamRenderer(identity, echo());
    let text = renderer.chunk({
      choices: [
        {
          index: 0,
          delta: { reasoning: "hm", reasoning_details: [{ type: "reasoning.text", text: "hm", format }] },
        },
      ],
    });
    text += renderer.chunk({
      choices: [
        { index: 0, delta: { reasoning_details: [{ type: "reasoning.text", signature: "sig", format }] } },
      ],
    });
    text += renderer.chunk({ choices: [{ index: 0, delta: { content: "ok" }, finish_reason: "stop" }] });
    const stream = events(text + renderer.end(usage));
    // No summary was asked for: no summary events, the state comes as one reasoning item after the message.
    expect(stream.map((event) => event.type)).not.toContain("response.reasoning_summary_text.delta");
    const output = finalOutput(stream);
    expect(output.map((item) => item.type)).toEqual(["message", "reasoning"]);
    expect(output[1]).toMatchObject({ id: "rs_gen-1_1", summary: [] });
    expect(decodeReasoningDetails(output[1]?.encrypted_content)).toEqual([
      { type: "reasoning.text", text: "hm", signature: "sig", format },
    ]);
  });

  it("streams a refusal as the message's refusal part, and a later message as a second item with its own id", () => {
    const renderer = new ResponsesStreamRenderer(identity, echo());
    let text = renderer.chunk({ choices: [{ index: 0, delta: { refusal: "I can't " } }] });
    text += renderer.chunk({ choices: [{ index: 0, delta: { refusal: "help." } }] });
    text += renderer.chunk({
      choices: [
        {
          index: 0,
          delta: { tool_calls: [{ index: 0, id: "c", function: { name: "f", arguments: "{}" } }] },
        },
      ],
    });
    text += renderer.chunk({ choices: [{ index: 0, delta: { content: "after" }, finish_reason: "stop" }] });
    const stream = events(text + renderer.end(usage));
    const types = stream.map((event) => event.type);
    expect(types.slice(2, 8)).toEqual([
      "response.output_item.added",
      "response.content_part.added",
      "response.refusal.delta",
      "response.refusal.delta",
      "response.refusal.done",
      "response.content_part.done",
    ]);
    expect(stream.find((event) => event.type === "response.refusal.done")).toMatchObject({
      refusal: "I can't help.",
    });
    const output = finalOutput(stream);
    expect(output.map((item) => [item.type, item.id])).toEqual([
      ["message", "msg_gen-1"],
      ["function_call", "fc_gen-1_0"],
      ["message", "msg_gen-1_2"],
    ]);
    expect(output[0]?.content).toEqual([{ type: "refusal", refusal: "I can't help." }]);
  });

  it("ends a response cut by the token cap as response.incomplete with the reason", () => {
    const renderer = new ResponsesStreamRenderer(identity, echo());
    const stream = events(
      renderer.chunk({ choices: [{ index: 0, delta: { content: "a" }, finish_reason: "length" }] }) +
        renderer.end(usage),
    );
    expect(stream.at(-1)).toMatchObject({
      type: "response.incomplete",
      response: { status: "incomplete", incomplete_details: { reason: "max_output_tokens" } },
    });
  });

  it("ends a failed stream with response.failed and nothing after it", () => {
    const renderer = new ResponsesStreamRenderer(identity, echo());
    const stream = events(
      renderer.error(new GatewayError("upstream", "the provider failed", { code: "upstream_error" })),
    );
    expect(stream.map((event) => event.type)).toEqual([
      "response.created",
      "response.in_progress",
      "response.failed",
    ]);
    expect(stream[2]?.response).toMatchObject({
      status: "failed",
      error: { code: "upstream_error", message: "the provider failed" },
    });
    expect(renderer.end({ ...usage, cost: ZERO_COST, chargedPico: 0n })).toBe("");
  });
});

describe("renderResponse", () => {
  it("adds a reasoning item with the provider's state (and the summary only when asked for)", () => {
    const details = [{ type: "reasoning.text", text: "t", signature: "s", format: "anthropic-claude-v1" }];
    const body = {
      choices: [
        {
          index: 0,
          message: { content: "ok", reasoning: "t", reasoning_details: details },
          finish_reason: "stop",
        },
      ],
    };
    const plain = renderResponse(echo())(body, identity, usage) as { output: Array<Record<string, unknown>> };
    expect(plain.output[0]).toMatchObject({ type: "reasoning", id: "rs_gen-1", summary: [] });
    expect(decodeReasoningDetails(plain.output[0]?.encrypted_content)).toEqual(details);
    const summarised = renderResponse(echo({ reasoning: { summary: "auto" } }))(body, identity, usage) as {
      output: Array<Record<string, unknown>>;
    };
    expect(summarised.output[0]?.summary).toEqual([{ type: "summary_text", text: "t" }]);
  });

  it("renders a completion as a Response: message, function calls, usage with cost, echoed parameters", () => {
    const render = renderResponse(
      echo({ instructions: "be brief", metadata: { a: "b" }, max_output_tokens: 50 }),
    );
    const body = render(
      {
        id: "up",
        choices: [
          {
            index: 0,
            message: {
              content: "Sure.",
              tool_calls: [{ id: "call_9", type: "function", function: { name: "f", arguments: '{"x":1}' } }],
            },
            finish_reason: "tool_calls",
          },
        ],
      },
      identity,
      usage,
    );
    expect(body).toMatchObject({
      id: "gen-1",
      object: "response",
      created_at: 100,
      status: "completed",
      model: "openai/gpt-4o-mini",
      provider: "openai",
      store: false,
      instructions: "be brief",
      metadata: { a: "b" },
      max_output_tokens: 50,
      output: [
        { type: "message", content: [{ type: "output_text", text: "Sure." }] },
        { type: "function_call", call_id: "call_9", name: "f", arguments: '{"x":1}' },
      ],
      usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15, cost: 0.0000045 },
    });
  });
});
