import { asksForTool, limitReply, replyText, toolArguments, toolResultReply } from "../core/content.js";
import { randomId } from "../core/ids.js";
import { estimateTokens } from "../core/tokens.js";
import type { MessagesRequest } from "./request.js";
import { thinkingSignature } from "./thinking.js";
import { pageCitation, type SearchBlock, searchBlocks, searchPages } from "./web-search.js";

export type AnthropicBlock =
  | { readonly type: "text"; readonly text: string; readonly citations?: readonly Record<string, unknown>[] }
  | SearchBlock
  | { readonly type: "thinking"; readonly thinking: string; readonly signature: string }
  | {
      readonly type: "tool_use";
      readonly id: string;
      readonly name: string;
      readonly input: Record<string, unknown>;
    };

export interface MessagePlan {
  readonly content: readonly AnthropicBlock[];
  readonly stopReason: "end_turn" | "max_tokens" | "tool_use";
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Searches the web search tool ran (`usage.server_tool_use.web_search_requests`); 0 without the tool. */
  readonly webSearchRequests: number;
}

/** The uncited lead-in of a searched answer, so the cited block's span starts past 0 as Claude's do. */
const SEARCH_PREAMBLE = "Here is what I found. ";

/** Text the model says before a tool call, so tool replies exercise multi-block indexes as Claude's do. */
const TOOL_PREAMBLE = "Let me check that.";

// Input count: the text estimate of system, messages and tool definitions, plus 3 tokens per message for the
// role framing. Anthropic publishes no formula; this is the fake's own, documented in core/tokens.ts.
export function countInputTokens(request: MessagesRequest): number {
  return (
    estimateTokens(request.system) +
    request.messages.reduce((sum, m) => sum + estimateTokens(m.text) + 3, 0) +
    (request.tools.length > 0 ? estimateTokens(JSON.stringify(request.tools)) : 0) +
    request.mediaTokens
  );
}

/** With thinking on, the answer starts with a signed thinking block (counted as output tokens). */
export function planMessage(request: MessagesRequest, demo: boolean): MessagePlan {
  const plan = searched(request, planAnswer(request, demo));
  if (!request.thinking) return plan;
  const last = request.messages.at(-1);
  const thinking = `Thinking about: ${(last?.toolResult ?? last?.text ?? "").slice(0, 80)}`;
  return {
    ...plan,
    content: [{ type: "thinking", thinking, signature: thinkingSignature(thinking) }, ...plan.content],
    outputTokens: plan.outputTokens + estimateTokens(thinking),
  };
}

function planAnswer(request: MessagesRequest, demo: boolean): MessagePlan {
  const inputTokens = countInputTokens(request);
  const last = request.messages.at(-1);
  const lastText = last?.role === "user" ? last.text : "";
  const tool = chooseTool(request, last?.toolResult !== null && last?.toolResult !== undefined, lastText);
  if (tool) {
    const input = toolArguments(tool.inputSchema, lastText);
    return {
      content: [
        { type: "text", text: TOOL_PREAMBLE },
        { type: "tool_use", id: randomId("toolu_01", 22), name: tool.name, input },
      ],
      stopReason: "tool_use",
      webSearchRequests: 0,
      inputTokens,
      outputTokens:
        estimateTokens(TOOL_PREAMBLE) + estimateTokens(tool.name) + estimateTokens(JSON.stringify(input)),
    };
  }
  const full =
    last?.toolResult !== null && last?.toolResult !== undefined
      ? toolResultReply(last.toolResult, { demo })
      : replyText(lastText, { demo });
  const { text, truncated } = limitReply(full, request.maxTokens);
  return {
    content: [{ type: "text", text }],
    stopReason: truncated ? "max_tokens" : "end_turn",
    webSearchRequests: 0,
    inputTokens,
    outputTokens: estimateTokens(text),
  };
}

/**
 * With the web search tool on a user question, the answer is the search (one, within any `max_uses`),
 * its results, an uncited lead-in, then the reply as a text block citing the first page. The results
 * are read by the model, so they count as input tokens, as Anthropic bills them.
 */
function searched(request: MessagesRequest, plan: MessagePlan): MessagePlan {
  const last = request.messages.at(-1);
  const reply = plan.content.length === 1 ? plan.content[0] : undefined;
  if (!request.webSearch || last?.role !== "user" || last.toolResult !== null || reply?.type !== "text")
    return plan;
  const query = last.text.slice(0, 200);
  const pages = searchPages(query);
  const results = JSON.stringify(pages);
  return {
    ...plan,
    content: [
      ...searchBlocks(query, pages),
      { type: "text", text: SEARCH_PREAMBLE },
      {
        type: "text",
        text: reply.text,
        citations: [pageCitation(pages[0] as (typeof pages)[0], reply.text)],
      },
    ],
    inputTokens: plan.inputTokens + estimateTokens(results),
    outputTokens: plan.outputTokens + estimateTokens(SEARCH_PREAMBLE) + estimateTokens(query),
    webSearchRequests: 1,
  };
}

function chooseTool(request: MessagesRequest, afterToolResult: boolean, text: string) {
  if (request.tools.length === 0 || request.toolChoice === "none") return undefined;
  if (request.toolChoice.startsWith("tool:")) {
    const name = request.toolChoice.slice("tool:".length);
    return request.tools.find((t) => t.name === name);
  }
  const wanted = request.toolChoice === "any" || (!afterToolResult && asksForTool(text));
  if (!wanted) return undefined;
  return request.tools.find((t) => /weather/i.test(t.name)) ?? request.tools[0];
}
