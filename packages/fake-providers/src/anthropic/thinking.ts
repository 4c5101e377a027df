import { createHash } from "node:crypto";
import { isRecord } from "../core/content.js";
import type { ProviderError } from "../core/server.js";

// Extended thinking as the Messages API enforces it: a budget of at least 1,024 tokens below
// max_tokens; thinking blocks carry a signature the API checks when they come back; and while a tool
// loop is under way the last assistant turn must start with its thinking block, or the request is a
// 400 (docs: extended thinking with tool use, "preserving thinking blocks").

const MIN_BUDGET = 1024;
const DOCS = "https://docs.claude.com/en/docs/build-with-claude/extended-thinking";

/** The fake's signature of a thinking text: opaque to clients, checked when the block comes back. */
export function thinkingSignature(thinking: string): string {
  return `fake-sig-${createHash("sha256").update(thinking).digest("base64url").slice(0, 32)}`;
}

/** Whether the body turns thinking on (undefined), or the API's error for a bad thinking setting. */
export function parseThinking(body: Record<string, unknown>, maxTokens: number): boolean | ProviderError {
  const thinking = body.thinking;
  if (thinking === undefined || thinking === null) return false;
  if (!isRecord(thinking)) return { status: 400, message: "thinking: Input should be a valid dictionary" };
  if (thinking.type === "disabled") return false;
  if (thinking.type !== "enabled")
    return { status: 400, message: "thinking.type: Input should be 'enabled' or 'disabled'" };
  const budget = thinking.budget_tokens;
  if (!Number.isInteger(budget) || (budget as number) < MIN_BUDGET)
    return {
      status: 400,
      message: `thinking.enabled.budget_tokens: Input should be greater than or equal to ${MIN_BUDGET}`,
    };
  if (maxTokens <= (budget as number))
    return {
      status: 400,
      message: `\`max_tokens\` must be greater than \`thinking.budget_tokens\`. Please consult our documentation at ${DOCS}`,
    };
  return true;
}

function blocksOf(message: unknown): Record<string, unknown>[] {
  if (!isRecord(message) || !Array.isArray(message.content)) return [];
  return message.content.filter(isRecord);
}

/** Every thinking block sent back must carry the signature the fake gave it. */
function checkSignatures(messages: readonly unknown[]): ProviderError | undefined {
  for (const [index, message] of messages.entries()) {
    for (const [position, block] of blocksOf(message).entries()) {
      if (block.type !== "thinking") continue;
      const text = typeof block.thinking === "string" ? block.thinking : "";
      if (block.signature !== thinkingSignature(text))
        return {
          status: 400,
          message: `messages.${index}.content.${position}: Invalid \`signature\` in \`thinking\` block`,
        };
    }
  }
  return undefined;
}

/**
 * With thinking on, the assistant turn whose tool calls the last user turn answers must start with a
 * thinking block; every thinking block must be one the fake signed.
 */
export function checkThinkingHistory(
  messages: readonly unknown[],
  thinking: boolean,
): ProviderError | undefined {
  const badSignature = checkSignatures(messages);
  if (badSignature || !thinking) return badSignature;
  const lastUser = blocksOf(messages.at(-1));
  if (!lastUser.some((block) => block.type === "tool_result")) return undefined;
  const index = messages.length - 2;
  const assistant = blocksOf(messages[index]);
  if (!assistant.some((block) => block.type === "tool_use")) return undefined;
  const first = assistant[0]?.type;
  if (first === "thinking" || first === "redacted_thinking") return undefined;
  return {
    status: 400,
    message:
      `messages.${index}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${String(first)}\`. ` +
      "When `thinking` is enabled, a final `assistant` message must start with a thinking block (preceeding the " +
      "lastmost set of `tool_use` and `tool_result` blocks). We recommend you include thinking blocks from previous " +
      `turns. To avoid this requirement, disable \`thinking\`. Please consult our documentation at ${DOCS}`,
  };
}

/**
 * "Thinking isn't compatible with temperature or top_k modifications as well as forced tool use"; top_p may
 * be set between 0.95 and 1 (docs: extended thinking, "feature compatibility"). The API answers 400.
 */
export function checkSamplingWithThinking(
  body: Record<string, unknown>,
  thinking: boolean,
): ProviderError | undefined {
  if (!thinking) return undefined;
  const refuse = (message: string): ProviderError => ({
    status: 400,
    message: `${message} Please consult our documentation at ${DOCS}`,
  });
  if (body.temperature !== undefined && body.temperature !== 1)
    return refuse("`temperature` may only be set to 1 when thinking is enabled.");
  if (body.top_k !== undefined) return refuse("`top_k` is not supported when thinking is enabled.");
  if (typeof body.top_p === "number" && body.top_p < 0.95)
    return refuse("`top_p` must be greater than or equal to 0.95 or unset when thinking is enabled.");
  const choice = isRecord(body.tool_choice) ? body.tool_choice.type : undefined;
  if (choice === "any" || choice === "tool")
    return refuse("Thinking may not be enabled when `tool_choice` forces tool use.");
  return undefined;
}
