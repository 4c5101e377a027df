import { picoToUsdNumber } from "@gw/money";
import { totalTokens } from "../../canonical/tokens.js";
import type { CompletionWire } from "../../canonical/wire.js";
import type { ResponseIdentity } from "../openai/chat-response.js";
import { renderUsage, type UsageRender } from "../openai/usage.js";
import { urlCitationsIn } from "../url-citation.js";
import { detailsOf, encodeReasoningDetails, mergeReasoningDetails } from "./reasoning-state.js";
import type { ResponsesEcho } from "./request.js";

type Json = Record<string, unknown>;

export type ResponseStatus = "in_progress" | "completed" | "incomplete" | "failed";

/** Item ids derive from the generation id, so every item can be traced back to its generation. */
export const itemIds = {
  /** The first message item is `msg_<id>`; a later one adds its output index. */
  message: (generationId: string, outputIndex = 0) =>
    outputIndex === 0 ? `msg_${generationId}` : `msg_${generationId}_${outputIndex}`,
  /** The first reasoning item is `rs_<id>`; a later one adds its output index. */
  reasoning: (generationId: string, outputIndex = 0) =>
    outputIndex === 0 ? `rs_${generationId}` : `rs_${generationId}_${outputIndex}`,
  functionCall: (generationId: string, index: number) => `fc_${generationId}_${index}`,
};

/** The Responses usage object, with OpenRouter's cost fields beside OpenAI's counts. */
export function responsesUsage(render: UsageRender): Json {
  const { usage } = render;
  const chat = renderUsage(render);
  return {
    input_tokens: usage.promptTokens,
    input_tokens_details: { cached_tokens: usage.cachedTokens },
    output_tokens: usage.completionTokens,
    output_tokens_details: { reasoning_tokens: usage.reasoningTokens },
    total_tokens: totalTokens(usage),
    cost: picoToUsdNumber(render.chargedPico),
    is_byok: render.isByok,
    estimated: render.estimated,
    // OpenRouter's names for the parts (its SDK requires them), beside the chat surface's.
    cost_details: {
      ...chat.cost_details,
      upstream_inference_input_cost: chat.cost_details.upstream_inference_prompt_cost,
      upstream_inference_output_cost: chat.cost_details.upstream_inference_completions_cost,
    },
  };
}

/** `length` and `content_filter` end a response as incomplete, with the reason OpenAI gives. */
export function statusFor(finishReason: string | null | undefined): {
  status: ResponseStatus;
  incomplete: Json | null;
} {
  if (finishReason === "length") return { status: "incomplete", incomplete: { reason: "max_output_tokens" } };
  if (finishReason === "content_filter")
    return { status: "incomplete", incomplete: { reason: "content_filter" } };
  return { status: "completed", incomplete: null };
}

export interface ResponseShell {
  identity: ResponseIdentity;
  echo: ResponsesEcho;
  status: ResponseStatus;
  output: Json[];
  usage: Json | null;
  incomplete: Json | null;
  error: Json | null;
}

/** The Response object: OpenAI's fields, stateless (`store: false`), plus the provider that served it. */
export function responseObject(shell: ResponseShell): Json {
  const { identity, echo } = shell;
  return {
    id: identity.generationId,
    object: "response",
    created_at: identity.created,
    // Set once the response has ended (OpenRouter's SDK requires the field, null until then).
    completed_at: shell.status === "completed" || shell.status === "incomplete" ? identity.created : null,
    status: shell.status,
    error: shell.error,
    incomplete_details: shell.incomplete,
    instructions: echo.instructions,
    max_output_tokens: echo.maxOutputTokens,
    model: identity.model,
    output: shell.output,
    parallel_tool_calls: echo.parallelToolCalls,
    previous_response_id: null,
    reasoning: echo.reasoning,
    store: false,
    temperature: echo.temperature,
    text: echo.text,
    // OpenRouter's response object carries the penalties (its SDK requires them); this API takes none.
    frequency_penalty: null,
    presence_penalty: null,
    tool_choice: echo.toolChoice,
    tools: echo.tools,
    top_p: echo.topP,
    truncation: "disabled",
    usage: shell.usage,
    user: echo.user,
    metadata: echo.metadata,
    provider: identity.provider,
  };
}

/**
 * A reasoning item: the summary when there is one to show, and the provider's reasoning state (see
 * reasoning-state.ts) as `encrypted_content` when there is some to hand back on the next turn.
 */
export function reasoningItem(id: string, text: string | undefined, details: readonly Json[]): Json {
  const item: Json = {
    type: "reasoning",
    id,
    summary: text === undefined ? [] : [{ type: "summary_text", text }],
  };
  if (details.length > 0) item.encrypted_content = encodeReasoningDetails(details);
  return item;
}

export function messageItem(id: string, parts: Json[], status: ResponseStatus): Json {
  return {
    type: "message",
    id,
    status: status === "in_progress" ? "in_progress" : "completed",
    role: "assistant",
    content: parts,
  };
}

export const refusalPart = (refusal: string): Json => ({ type: "refusal", refusal });

/**
 * An output_text part; `annotations` are the message's web citations in the Responses API's own form
 * (platform.openai.com "Web search": `{type: "url_citation", start_index, end_index, url, title}`).
 */
export const outputTextPart = (text: string, annotations?: unknown): Json => ({
  type: "output_text",
  text,
  annotations: urlCitationsIn(annotations, text.length).map(({ url_citation: cited }) => ({
    type: "url_citation",
    start_index: cited.start_index,
    end_index: cited.end_index,
    url: cited.url,
    title: cited.title,
  })),
  logprobs: [],
});

export function functionCallItem(generationId: string, index: number, call: Json, status: string): Json {
  const fn = (call.function ?? {}) as Json;
  return {
    type: "function_call",
    id: itemIds.functionCall(generationId, index),
    call_id: typeof call.id === "string" ? call.id : `call_${generationId}_${index}`,
    name: fn.name ?? "",
    arguments: typeof fn.arguments === "string" ? fn.arguments : "",
    status,
  };
}

/**
 * The output items of a canonical completion (first choice: the Responses API has no `n`):
 * reasoning (a summary when the client asked for summaries and the provider gave reasoning text, and
 * the provider's reasoning state), the message, then one function_call per tool call.
 */
export function outputItems(body: CompletionWire, generationId: string, echo: ResponsesEcho): Json[] {
  const message = (body.choices[0]?.message ?? {}) as Json;
  const items: Json[] = [];
  const summary =
    echo.reasoning.summary && typeof message.reasoning === "string" && message.reasoning
      ? message.reasoning
      : undefined;
  const details = mergeReasoningDetails(detailsOf(message));
  if (summary !== undefined || details.length > 0)
    items.push(reasoningItem(itemIds.reasoning(generationId), summary, details));
  const parts: Json[] = [];
  if (typeof message.content === "string" && message.content)
    parts.push(outputTextPart(message.content, message.annotations));
  if (typeof message.refusal === "string" && message.refusal) parts.push(refusalPart(message.refusal));
  if (parts.length > 0) items.push(messageItem(itemIds.message(generationId), parts, "completed"));
  const calls = Array.isArray(message.tool_calls) ? (message.tool_calls as Json[]) : [];
  calls.forEach((call, index) => {
    items.push(functionCallItem(generationId, index, call, "completed"));
  });
  return items;
}

/** A canonical completion as a Response object. */
export function renderResponse(
  echo: ResponsesEcho,
): (body: CompletionWire, identity: ResponseIdentity, usage: UsageRender) => Json {
  return (body, identity, usage) => {
    const { status, incomplete } = statusFor(body.choices[0]?.finish_reason);
    return responseObject({
      identity,
      echo,
      status,
      output: outputItems(body, identity.generationId, echo),
      usage: responsesUsage(usage),
      incomplete,
      error: null,
    });
  };
}
