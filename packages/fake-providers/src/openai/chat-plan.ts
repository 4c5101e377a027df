import { asksForTool, limitReply, replyText, toolArguments, toolResultReply } from "../core/content.js";
import { randomId } from "../core/ids.js";
import { estimateTokens } from "../core/tokens.js";
import type { ChatRequest } from "./chat-request.js";
import { searchedAnswer, type UrlAnnotation } from "./web-search.js";

export interface PlannedToolCall {
  readonly id: string;
  readonly name: string;
  /** A JSON string, as the API sends it. */
  readonly arguments: string;
}

/** One deterministic answer, rendered either as a completion or as a chunk stream. */
export interface ChatPlan {
  readonly content: string | null;
  readonly toolCall: PlannedToolCall | null;
  readonly finishReason: "stop" | "length" | "tool_calls";
  readonly promptTokens: number;
  readonly completionTokens: number;
  /** Of `promptTokens`: the audio (reported apart, as OpenAI does). */
  readonly audioTokens: number;
  /** A search model's citations of what it found (message `annotations`). */
  readonly annotations: readonly UrlAnnotation[];
}

// Prompt count: the text estimate plus 3 tokens per message and 3 priming the reply, the overhead OpenAI
// documents for its chat format; tool definitions count as their JSON.
export function planChat(request: ChatRequest, demo: boolean): ChatPlan {
  const { imageTokens, audioTokens, fileTokens } = request.media;
  const promptTokens =
    request.messages.reduce((sum, m) => sum + estimateTokens(m.text) + 3, 3) +
    (request.tools.length > 0 ? estimateTokens(JSON.stringify(request.tools)) : 0) +
    imageTokens +
    audioTokens +
    fileTokens;
  const last = request.messages.at(-1);
  const lastUser = [...request.messages].reverse().find((m) => m.role === "user")?.text ?? "";

  const tool = chooseTool(request, last?.role === "tool", lastUser);
  if (tool) {
    const args = JSON.stringify(toolArguments(tool.parameters, lastUser));
    return {
      content: null,
      toolCall: { id: randomId("call_", 24), name: tool.name, arguments: args },
      finishReason: "tool_calls",
      promptTokens,
      audioTokens,
      completionTokens: estimateTokens(tool.name) + estimateTokens(args) + 3,
      annotations: [],
    };
  }
  const full = last?.role === "tool" ? toolResultReply(last.text, { demo }) : replyText(lastUser, { demo });
  const { text, truncated } = limitReply(full, request.maxTokens);
  const answer = request.searches ? searchedAnswer(text, lastUser) : { content: text, annotations: [] };
  return {
    content: answer.content,
    toolCall: null,
    finishReason: truncated ? "length" : "stop",
    promptTokens,
    audioTokens,
    completionTokens: estimateTokens(answer.content),
    annotations: answer.annotations,
  };
}

function chooseTool(request: ChatRequest, afterToolResult: boolean, lastUser: string) {
  if (request.tools.length === 0 || request.toolChoice === "none") return undefined;
  if (request.toolChoice.startsWith("function:")) {
    const name = request.toolChoice.slice("function:".length);
    return request.tools.find((t) => t.name === name);
  }
  const wanted = request.toolChoice === "required" || (!afterToolResult && asksForTool(lastUser));
  if (!wanted) return undefined;
  return request.tools.find((t) => /weather/i.test(t.name)) ?? request.tools[0];
}
