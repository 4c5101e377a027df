import { asksForTool, limitReply, replyText, toolArguments, toolResultReply } from "../core/content.js";
import { randomId } from "../core/ids.js";
import { estimateTokens } from "../core/tokens.js";
import type { MessagesRequest } from "./request.js";
import { thinkingSignature } from "./thinking.js";

export type AnthropicBlock =
  | { readonly type: "text"; readonly text: string }
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
}

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
  const plan = planAnswer(request, demo);
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
    inputTokens,
    outputTokens: estimateTokens(text),
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
