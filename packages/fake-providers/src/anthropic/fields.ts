import { isRecord } from "../core/content.js";
import type { ProviderError } from "../core/server.js";
import { checkServerTool } from "./web-search.js";

// Which fields the Messages API accepts where, per its reference (https://docs.anthropic.com/en/api/messages,
// https://docs.anthropic.com/en/api/messages-count-tokens). The API validates the whole body and refuses a
// field it does not know, or one in the wrong place, with 400 invalid_request_error
// `<path>: Extra inputs are not permitted`, the path naming a content block's type
// (`messages.0.name`, `messages.65.content.1.tool_use.text`, `system.1.cache_control.ephemeral.scope`,
// `tools.0.custom.defer_loading`, as reported in github.com/microsoft/autogen/issues/3034,
// github.com/anthropics/claude-code/issues/4378 and /31033, github.com/caozhiyuan/copilot-api/issues/145).
// Fields that exist only behind a beta are unknown unless the `anthropic-beta` header turns the beta on.

const MESSAGE_FIELDS = [
  "model",
  "messages",
  "max_tokens",
  "system",
  "metadata",
  "stop_sequences",
  "stream",
  "temperature",
  "top_k",
  "top_p",
  "tools",
  "tool_choice",
  "thinking",
  "service_tier",
  "container",
  "output_config",
];
const COUNT_TOKENS_FIELDS = [
  "model",
  "messages",
  "system",
  "tools",
  "tool_choice",
  "thinking",
  "output_config",
];

/** Fields a beta adds, by the prefix of the beta's name (`structured-outputs-2025-11-13`). */
const BETA_FIELDS: Readonly<Record<string, string>> = {
  output_format: "structured-outputs-",
  context_management: "context-management-",
  mcp_servers: "mcp-client-",
};

const BLOCK_FIELDS: Readonly<Record<string, readonly string[]>> = {
  text: ["type", "text", "cache_control", "citations"],
  image: ["type", "source", "cache_control"],
  document: ["type", "source", "title", "context", "citations", "cache_control"],
  search_result: ["type", "source", "title", "content", "citations", "cache_control"],
  tool_use: ["type", "id", "name", "input", "cache_control"],
  tool_result: ["type", "tool_use_id", "content", "is_error", "cache_control"],
  // Thinking blocks cannot be cache breakpoints (messages.N.content.M.thinking.cache_control is refused).
  thinking: ["type", "thinking", "signature"],
  redacted_thinking: ["type", "data"],
};
const CUSTOM_TOOL_FIELDS = ["type", "name", "description", "input_schema", "cache_control", "strict"];
/** Prompt caching: `{type: "ephemeral", ttl?: "5m" | "1h"}` (docs: build-with-claude/prompt-caching). */
const CACHE_CONTROL_FIELDS = ["type", "ttl"];

const extra = (path: string): ProviderError => ({
  status: 400,
  message: `${path}: Extra inputs are not permitted`,
});

function firstExtra(value: Record<string, unknown>, allowed: readonly string[], path: string) {
  const unknown = Object.keys(value).find((key) => !allowed.includes(key));
  return unknown === undefined ? undefined : extra(path === "" ? unknown : `${path}.${unknown}`);
}

/** The API's refusal of the first unknown or misplaced field in a Messages (or count_tokens) body. */
export function checkMessageFields(
  body: Record<string, unknown>,
  betas: readonly string[],
  countTokens: boolean,
): ProviderError | undefined {
  const enabled = Object.entries(BETA_FIELDS)
    .filter(([, prefix]) => betas.some((beta) => beta.startsWith(prefix)))
    .map(([field]) => field);
  const allowed = [...(countTokens ? COUNT_TOKENS_FIELDS : MESSAGE_FIELDS), ...enabled];
  return (
    firstExtra(body, allowed, "") ??
    checkSystem(body.system) ??
    checkMessages(body.messages) ??
    checkTools(body.tools)
  );
}

function checkSystem(system: unknown): ProviderError | undefined {
  if (!Array.isArray(system)) return undefined;
  for (const [index, block] of system.entries()) {
    if (!isRecord(block)) continue;
    const error = checkBlock(block, `system.${index}`, false);
    if (error) return error;
  }
  return undefined;
}

function checkMessages(messages: unknown): ProviderError | undefined {
  if (!Array.isArray(messages)) return undefined;
  for (const [index, message] of messages.entries()) {
    if (!isRecord(message)) continue;
    const error = firstExtra(message, ["role", "content"], `messages.${index}`);
    if (error) return error;
    if (!Array.isArray(message.content)) continue;
    for (const [position, block] of message.content.entries()) {
      if (!isRecord(block)) continue;
      const blockError = checkBlock(block, `messages.${index}.content.${position}`, true);
      if (blockError) return blockError;
    }
  }
  return undefined;
}

/** A known block's fields; message blocks name their type in the path, system blocks (text only) do not. */
function checkBlock(block: Record<string, unknown>, path: string, typed: boolean): ProviderError | undefined {
  const type = typeof block.type === "string" ? block.type : "";
  const allowed = Object.hasOwn(BLOCK_FIELDS, type) ? BLOCK_FIELDS[type] : undefined;
  // Block types this fake does not model (server tool results and the like) are left to the real API.
  if (!allowed) return undefined;
  const at = typed ? `${path}.${type}` : path;
  return firstExtra(block, allowed, at) ?? checkCacheControl(block.cache_control, `${at}.cache_control`);
}

function checkCacheControl(value: unknown, path: string): ProviderError | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isRecord(value) || value.type !== "ephemeral")
    return { status: 400, message: `${path}.type: Input should be 'ephemeral'` };
  const error = firstExtra(value, CACHE_CONTROL_FIELDS, `${path}.ephemeral`);
  if (error) return error;
  if (value.ttl !== undefined && value.ttl !== "5m" && value.ttl !== "1h")
    return { status: 400, message: `${path}.ephemeral.ttl: Input should be '5m' or '1h'` };
  return undefined;
}

function checkTools(tools: unknown): ProviderError | undefined {
  if (!Array.isArray(tools)) return undefined;
  for (const [index, tool] of tools.entries()) {
    if (!isRecord(tool)) continue;
    // Server tools (`web_search_20250305`, …) have their own shapes; custom tools have no type or "custom".
    if (tool.type !== undefined && tool.type !== "custom") {
      const error = checkServerTool(tool, index);
      if (error) return error;
      continue;
    }
    const error =
      firstExtra(tool, CUSTOM_TOOL_FIELDS, `tools.${index}.custom`) ??
      checkCacheControl(tool.cache_control, `tools.${index}.custom.cache_control`);
    if (error) return error;
  }
  return undefined;
}

/** The betas a request turns on: the comma-separated `anthropic-beta` header. */
export function betasOf(header: string | string[] | undefined): string[] {
  const raw = Array.isArray(header) ? header.join(",") : (header ?? "");
  return raw
    .split(",")
    .map((beta) => beta.trim())
    .filter((beta) => beta !== "");
}
