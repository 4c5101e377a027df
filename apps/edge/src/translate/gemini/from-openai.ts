import { DEFAULT_MAX_JSON_DEPTH, exceedsDepth } from "@gw/http";
import { type ChatMessage, type ChatRequest, requestedMaxTokens } from "../../canonical/chat-request.js";
import {
  type ContentPiece,
  contentPieces,
  contentText,
  functionTools,
  parseArguments,
  stopSequences,
  systemBlocks,
  toolCalls,
  toolChoice,
} from "../openai/content.js";
import { thinkingMode, thoughtsExcluded } from "../openai/reasoning.js";
import { refuseForeignFields, SAFETY_SETTINGS_FIELD } from "../target-fields.js";
import { untranslatable } from "../untranslatable.js";
import { geminiMediaPart } from "./media-parts.js";
import { GEMINI_REASONING_FORMAT } from "./to-openai.js";

type Part = Record<string, unknown>;
interface GeminiContent {
  role: "user" | "model";
  parts: Part[];
}

/**
 * A canonical (OpenAI) chat request as a Gemini generateContent body (wire-formats §4.1–4.4): system
 * messages → `systemInstruction`, assistant → `model`, tool results → `functionResponse` parts named
 * after the call they answer, same-role turns merged. Thought signatures handed out earlier in
 * `reasoning_details` go back on their function calls.
 */
export function geminiRequestBody(request: ChatRequest): Record<string, unknown> {
  refuseForeignFields(request, "gemini");
  const body: Record<string, unknown> = { contents: geminiContents(request.messages) };
  // One text part per system block, as the caller split them (Gemini caches implicitly: no breakpoints).
  const system = systemBlocks(request.messages);
  if (system) body.systemInstruction = { parts: system.map((block) => ({ text: block.text })) };
  const tools = functionTools(request.tools);
  if (tools.length > 0) {
    body.tools = [
      {
        functionDeclarations: tools.map((tool) => ({
          name: tool.name,
          ...(tool.description ? { description: tool.description } : {}),
          ...(tool.parameters ? { parametersJsonSchema: tool.parameters } : {}),
        })),
      },
    ];
  }
  const choice = toolChoice(request.tool_choice);
  if (choice) {
    body.toolConfig = {
      functionCallingConfig:
        choice.mode === "function"
          ? { mode: "ANY", allowedFunctionNames: [choice.name] }
          : { mode: choice.mode === "required" ? "ANY" : choice.mode.toUpperCase() },
    };
  }
  const config = generationConfig(request);
  if (Object.keys(config).length > 0) body.generationConfig = config;
  const safety = request[SAFETY_SETTINGS_FIELD];
  if (Array.isArray(safety)) body.safetySettings = safety;
  return body;
}

function generationConfig(request: ChatRequest): Record<string, unknown> {
  const config: Record<string, unknown> = {};
  const set = (name: string, value: unknown) => {
    if (value !== undefined && value !== null) config[name] = value;
  };
  set("temperature", request.temperature);
  set("topP", request.top_p);
  set("topK", request.top_k);
  set("maxOutputTokens", requestedMaxTokens(request));
  set("stopSequences", stopSequences(request.stop));
  set("candidateCount", request.n);
  set("seed", request.seed);
  set("presencePenalty", request.presence_penalty);
  set("frequencyPenalty", request.frequency_penalty);
  const format = request.response_format as
    | { type?: unknown; json_schema?: { schema?: unknown } }
    | undefined;
  if (format?.type === "json_object" || format?.type === "json_schema")
    config.responseMimeType = "application/json";
  if (format?.type === "json_schema" && format.json_schema?.schema)
    config.responseJsonSchema = format.json_schema.schema;
  const thinking = thinkingConfig(request);
  if (thinking) config.thinkingConfig = thinking;
  return config;
}

/**
 * The share of `maxOutputTokens` a thinking budget may take. Gemini counts thoughts toward the output cap,
 * so a budget equal to the cap lets a model that thinks fully stop at MAX_TOKENS with no answer; the
 * remaining 20% is kept for the answer (80% is OpenRouter's share of max_tokens for effort "high", its
 * largest reasoning allocation short of the whole cap).
 */
const MAX_THINKING_SHARE = 0.8;

/**
 * Thinking as Gemini's `thinkingConfig`: off is budget 0, on with no amount is -1 (dynamic, the model
 * decides), a budget at most 80% of the `maxOutputTokens` sent, so room for the answer remains. Thoughts
 * come back unless the caller excluded them (OpenRouter's `reasoning.exclude`, Gemini's `includeThoughts`).
 */
function thinkingConfig(request: ChatRequest): Record<string, unknown> | undefined {
  const mode = thinkingMode(request);
  if (mode === undefined) return undefined;
  const includeThoughts = !thoughtsExcluded(request);
  if (mode.kind === "off") return { thinkingBudget: 0 };
  if (mode.kind === "dynamic") return { thinkingBudget: -1, includeThoughts };
  const cap = requestedMaxTokens(request);
  const room = cap === undefined ? mode.tokens : Math.floor(cap * MAX_THINKING_SHARE);
  return { thinkingBudget: Math.min(mode.tokens, room), includeThoughts };
}

function geminiContents(messages: readonly ChatMessage[]): GeminiContent[] {
  const out: GeminiContent[] = [];
  const callNames = new Map<string, string>();
  const push = (role: GeminiContent["role"], parts: Part[]) => {
    if (parts.length === 0) return;
    const last = out.at(-1);
    if (last && last.role === role) last.parts.push(...parts);
    else out.push({ role, parts });
  };
  for (const [index, message] of messages.entries()) {
    const path = `messages[${index}]`;
    if (message.role === "user") push("user", contentPieces(message.content, `${path}.content`).map(toPart));
    else if (message.role === "assistant") push("model", modelParts(message, path, callNames));
    else if (message.role === "tool") push("user", [functionResponse(message, path, callNames)]);
    else if (message.role === "function")
      untranslatable(`${path} (role function)`, "legacy function messages do not translate");
  }
  if (out.length === 0)
    untranslatable("messages", "there is no user or assistant turn besides the system prompt");
  return out;
}

function modelParts(message: ChatMessage, path: string, callNames: Map<string, string>): Part[] {
  const parts = contentPieces(message.content, `${path}.content`).map(toPart);
  const signatures = thoughtSignatures(message.reasoning_details);
  for (const call of toolCalls(message, path)) {
    callNames.set(call.id, call.name);
    const part: Part = {
      functionCall: {
        name: call.name,
        args: parseArguments(call.arguments, `${path}.tool_calls(${call.id}).function.arguments`),
      },
    };
    const signature = signatures.get(call.id);
    if (signature) part.thoughtSignature = signature;
    parts.push(part);
  }
  return parts;
}

function functionResponse(message: ChatMessage, path: string, callNames: Map<string, string>): Part {
  const id = message.tool_call_id ?? "";
  const name = callNames.get(id);
  if (!name) return untranslatable(`${path}.tool_call_id`, `no earlier assistant tool call has id ${id}`);
  const text = contentText(message.content, `${path}.content`);
  return { functionResponse: { name, response: responseObject(text) } };
}

/** Gemini wants an object: a JSON object result passes as is, anything else is wrapped. */
function responseObject(text: string): Record<string, unknown> {
  // Deeper than any body may nest (issue 33: written out recursively later): sent as text.
  if (exceedsDepth(text, DEFAULT_MAX_JSON_DEPTH)) return { result: text };
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === "object" && value !== null && !Array.isArray(value))
      return value as Record<string, unknown>;
  } catch {
    // not JSON: wrapped below
  }
  return { result: text };
}

/** Tool-call id → Gemini thought signature, from reasoning details a translated response gave out. */
function thoughtSignatures(details: unknown): Map<string, string> {
  const signatures = new Map<string, string>();
  if (!Array.isArray(details)) return signatures;
  for (const detail of details) {
    if (typeof detail !== "object" || detail === null) continue;
    const entry = detail as Record<string, unknown>;
    if (
      entry.format === GEMINI_REASONING_FORMAT &&
      typeof entry.id === "string" &&
      typeof entry.data === "string"
    )
      signatures.set(entry.id, entry.data);
  }
  return signatures;
}

function toPart(piece: ContentPiece): Part {
  if (piece.kind === "text") return { text: piece.text };
  return geminiMediaPart(piece, piece.path);
}
