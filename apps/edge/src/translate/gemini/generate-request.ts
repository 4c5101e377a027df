import { parseOrThrow } from "@gw/http";
import { z } from "zod";
import { type ChatMessage, type ChatRequest, chatRequestSchema } from "../../canonical/chat-request.js";
import { refuseUnknownMembers } from "../members.js";
import { audioFormatOf } from "../openai/media-parts.js";
import { SAFETY_SETTINGS_FIELD } from "../target-fields.js";
import { untranslatable } from "../untranslatable.js";
import { GEMINI_REASONING_FORMAT } from "./to-openai.js";

type Json = Record<string, unknown>;
const part = z.looseObject({});
const content = z.looseObject({ role: z.enum(["user", "model"]).optional(), parts: z.array(part) });
const int = z.number().int();

/** generateContent's body as the Gemini API validates it (the model is in the path). */
export const generateContentSchema = z.looseObject({
  contents: z.array(content).min(1),
  systemInstruction: z.looseObject({ parts: z.array(part) }).optional(),
  tools: z
    .array(
      z.looseObject({ functionDeclarations: z.array(z.looseObject({ name: z.string().min(1) })).optional() }),
    )
    .optional(),
  toolConfig: z
    .looseObject({
      functionCallingConfig: z
        .looseObject({
          mode: z.enum(["AUTO", "ANY", "NONE", "VALIDATED", "MODE_UNSPECIFIED"]).optional(),
          allowedFunctionNames: z.array(z.string()).optional(),
        })
        .optional(),
    })
    .optional(),
  generationConfig: z
    .looseObject({
      temperature: z.number().min(0).max(2).optional(),
      topP: z.number().min(0).max(1).optional(),
      topK: int.nonnegative().optional(),
      maxOutputTokens: int.positive().optional(),
      candidateCount: int.min(1).max(8).optional(),
      stopSequences: z.array(z.string()).optional(),
      seed: int.optional(),
      presencePenalty: z.number().optional(),
      frequencyPenalty: z.number().optional(),
      responseMimeType: z.string().optional(),
    })
    .optional(),
  safetySettings: z.array(z.looseObject({})).optional(),
  // The gateway's routing fields are accepted on every surface (api-decisions: Routing).
  models: chatRequestSchema.shape.models,
  provider: chatRequestSchema.shape.provider,
});

export type GenerateContentRequest = z.infer<typeof generateContentSchema>;

export function parseGenerateContent(body: unknown): GenerateContentRequest {
  return parseOrThrow(generateContentSchema, body);
}

// What the canonical form has a place for; anything else in a Gemini body is refused by name rather than
// dropped (the field table in apps/edge/README.md). `models` and `provider` are the gateway's routing.
const KNOWN_FIELDS = new Set([
  "contents",
  "systemInstruction",
  "tools",
  "toolConfig",
  "generationConfig",
  "safetySettings",
  "models",
  "provider",
]);
const KNOWN_CONFIG = new Set([
  "temperature",
  "topP",
  "topK",
  "maxOutputTokens",
  "candidateCount",
  "stopSequences",
  "seed",
  "presencePenalty",
  "frequencyPenalty",
  "responseMimeType",
  "responseSchema",
  "responseJsonSchema",
  "thinkingConfig",
]);

/**
 * A Gemini request in canonical (OpenAI chat) form (wire-formats §4.2–4.4): `systemInstruction` →
 * system message, `model` → assistant, `functionCall` → tool calls (ids synthesized when absent,
 * signatures kept in `reasoning_details`), `functionResponse` → tool messages matched to their call.
 * Safety settings ride along for a Gemini target; other targets refuse them (target-fields.ts).
 */
export function chatRequestFromGemini(
  request: GenerateContentRequest,
  model: string,
  stream: boolean,
): ChatRequest {
  const messages: ChatMessage[] = [];
  const system = request.systemInstruction?.parts
    .map((entry, index) => textOf(entry, `systemInstruction.parts[${index}]`))
    .join("");
  if (system) messages.push({ role: "system", content: system });
  const calls = new CallLedger();
  for (const [index, turn] of request.contents.entries()) {
    const path = `contents[${index}]`;
    if (turn.role === "model") messages.push(modelMessage(turn.parts, path, calls));
    else messages.push(...userMessages(turn.parts, path, calls));
  }
  refuseUnknown(request);
  const chat: ChatRequest = { model, messages, stream };
  applyConfig(request.generationConfig, chat);
  if (request.safetySettings && request.safetySettings.length > 0)
    chat[SAFETY_SETTINGS_FIELD] = request.safetySettings;
  if (request.models) chat.models = request.models;
  if (request.provider) chat.provider = request.provider;
  if (stream && (chat.n ?? 1) > 1)
    untranslatable("generationConfig.candidateCount > 1", "the gateway streams one candidate");
  const tools = functionTools(request.tools);
  if (tools.length > 0) chat.tools = tools;
  const choice = toolChoice(request.toolConfig?.functionCallingConfig);
  if (choice !== undefined) chat.tool_choice = choice;
  return chat;
}

/** Function-call ids, so a `functionResponse` (matched by id, else by name) answers the right call. */
class CallLedger {
  private next = 0;
  private readonly open: { id: string; name: string }[] = [];
  record(call: Json): string {
    const id = typeof call.id === "string" && call.id ? call.id : `call_${this.next++}`;
    this.open.push({ id, name: String(call.name ?? "") });
    return id;
  }
  answer(response: Json, path: string): string {
    const index = this.open.findIndex((entry) =>
      typeof response.id === "string" && response.id
        ? entry.id === response.id
        : entry.name === response.name,
    );
    if (index === -1) return untranslatable(path, `no earlier functionCall matches ${String(response.name)}`);
    const [entry] = this.open.splice(index, 1);
    return entry?.id ?? "";
  }
}

function textOf(entry: Json, path: string): string {
  if (typeof entry.text === "string") return entry.text;
  return untranslatable(path, "only text parts are allowed here");
}

function userMessages(parts: Json[], path: string, calls: CallLedger): ChatMessage[] {
  const tools: ChatMessage[] = [];
  const pieces: Json[] = [];
  for (const [index, entry] of parts.entries()) {
    const where = `${path}.parts[${index}]`;
    const response = entry.functionResponse as Json | undefined;
    if (response) {
      tools.push({
        role: "tool",
        tool_call_id: calls.answer(response, where),
        content: JSON.stringify(response.response ?? {}),
      });
    } else if (Object.keys(entry).length > 0) pieces.push(userPiece(entry, where));
    // An empty part is one whose only member (a Gemini file) was set aside for a Gemini target (native.ts).
  }
  if (pieces.length === 0) return tools;
  const only = pieces.length === 1 ? pieces[0] : undefined;
  return [
    ...tools,
    { role: "user", content: only?.type === "text" ? String(only.text) : (pieces as ChatMessage["content"]) },
  ];
}

function userPiece(entry: Json, where: string): Json {
  if (typeof entry.text === "string") return { type: "text", text: entry.text };
  const inline = entry.inlineData as Json | undefined;
  if (inline && typeof inline.mimeType === "string" && typeof inline.data === "string")
    return inlinePiece(inline.mimeType, inline.data, where);
  const file = entry.fileData as Json | undefined;
  if (file && typeof file.fileUri === "string") return filePiece(file.fileUri, file.mimeType, where);
  return untranslatable(
    `${where} (${Object.keys(entry).join(", ")})`,
    "only text, inline data, file URLs and function responses translate",
  );
}

/**
 * Inline bytes as the canonical part for their kind, the base64 as written: an image as an image_url
 * data: URL, a PDF or plain text as a `file`, audio as `input_audio` (OpenAI's format names).
 */
function inlinePiece(mimeType: string, data: string, where: string): Json {
  const type = mimeType.toLowerCase();
  if (type.startsWith("image/"))
    return { type: "image_url", image_url: { url: `data:${mimeType};base64,${data}` } };
  if (type === "application/pdf" || type === "text/plain")
    return { type: "file", file: { file_data: `data:${mimeType};base64,${data}` } };
  const format = audioFormatOf(type);
  if (format !== undefined) return { type: "input_audio", input_audio: { data, format } };
  return untranslatable(
    `${where}.inlineData (${mimeType})`,
    "only inline images, PDFs, plain text and wav, mp3, aiff, aac, ogg or flac audio translate",
  );
}

// Files uploaded to Gemini's Files API or Cloud Storage: only Gemini can read them.
const GOOGLE_STORAGE = /^(gs:\/\/|https:\/\/generativelanguage\.googleapis\.com\/)/i;

/**
 * `fileData` with a public http(s) URL as the canonical URL part (an image_url, or a `file` whose
 * `file_data` is the URL); a Gemini file is refused by path, so only a Gemini endpoint receives it.
 */
function filePiece(uri: string, mimeType: unknown, where: string): Json {
  const type = typeof mimeType === "string" ? mimeType.toLowerCase() : "";
  if (GOOGLE_STORAGE.test(uri) || !/^https?:\/\//i.test(uri))
    return untranslatable(`${where}.fileData`, "a file in Google's storage is only readable by Gemini");
  if (type.startsWith("image/")) return { type: "image_url", image_url: { url: uri } };
  if (type === "application/pdf") return { type: "file", file: { file_data: uri } };
  return untranslatable(
    `${where}.fileData`,
    `only image and PDF URLs translate, not ${type || "no mimeType"}`,
  );
}

function modelMessage(parts: Json[], path: string, calls: CallLedger): ChatMessage {
  const texts: string[] = [];
  const toolCalls: Json[] = [];
  const details: Json[] = [];
  for (const [index, entry] of parts.entries()) {
    const call = entry.functionCall as Json | undefined;
    if (call) {
      const id = calls.record(call);
      toolCalls.push({
        id,
        type: "function",
        function: { name: call.name, arguments: JSON.stringify(call.args ?? {}) },
      });
      if (typeof entry.thoughtSignature === "string")
        details.push({
          type: "reasoning.encrypted",
          id,
          data: entry.thoughtSignature,
          format: GEMINI_REASONING_FORMAT,
        });
    } else if (typeof entry.text === "string") {
      // Thought summaries are the model's own notes: they are not sent back as the answer.
      if (entry.thought !== true) texts.push(entry.text);
    } else
      untranslatable(
        `${path}.parts[${index}] (${Object.keys(entry).join(", ")})`,
        "only text and function calls translate",
      );
  }
  const message: ChatMessage = { role: "assistant", content: texts.length > 0 ? texts.join("") : null };
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  if (details.length > 0) message.reasoning_details = details;
  return message;
}

function refuseUnknown(request: GenerateContentRequest): void {
  const unknown = Object.keys(request).find((name) => !KNOWN_FIELDS.has(name));
  if (unknown) untranslatable(unknown, "the gateway has no translation for it (see the field table)");
  const config = Object.keys(request.generationConfig ?? {}).find((name) => !KNOWN_CONFIG.has(name));
  // Named as `generationConfig.<key>`, so a Gemini endpoint still receives it as sent (native.ts).
  if (config) untranslatable(`generationConfig.${config}`, "it has no translation (see the field table)");
  refuseUnknownNested(request);
}

const names = (...list: string[]): ReadonlySet<string> => new Set(list);

// The members below the top level that the canonical form has a place for (Gemini's generateContent
// reference: Content, Part, FunctionDeclaration, ToolConfig, ThinkingConfig). Any other is refused by its
// path (`contents[0].parts[1].videoMetadata`): a Gemini target still gets the body as sent
// (translateNative lists it as untranslated), another target never loses it in silence.
const CONTENT = names("role", "parts");
const PART = names(
  "text",
  "thought",
  "thoughtSignature",
  "inlineData",
  "fileData",
  "functionCall",
  "functionResponse",
);
const INLINE_DATA = names("mimeType", "data");
const FILE_DATA = names("mimeType", "fileUri");
const FUNCTION_CALL = names("id", "name", "args");
const FUNCTION_RESPONSE = names("id", "name", "response");
const SYSTEM_PART = names("text");
const DECLARATION = names("name", "description", "parameters", "parametersJsonSchema");
const TOOL_CONFIG = names("functionCallingConfig");
const CALLING_CONFIG = names("mode", "allowedFunctionNames");
const THINKING_CONFIG = names("thinkingBudget", "includeThoughts", "thinkingLevel");

function refuseUnknownNested(request: GenerateContentRequest): void {
  for (const [index, turn] of request.contents.entries()) {
    refuseUnknownMembers(turn, CONTENT, `contents[${index}]`);
    for (const [at, entry] of turn.parts.entries()) {
      const where = `contents[${index}].parts[${at}]`;
      refuseUnknownMembers(entry, PART, where);
      refuseUnknownMembers(entry.inlineData, INLINE_DATA, `${where}.inlineData`);
      refuseUnknownMembers(entry.fileData, FILE_DATA, `${where}.fileData`);
      refuseUnknownMembers(entry.functionCall, FUNCTION_CALL, `${where}.functionCall`);
      refuseUnknownMembers(entry.functionResponse, FUNCTION_RESPONSE, `${where}.functionResponse`);
    }
  }
  if (request.systemInstruction) {
    refuseUnknownMembers(request.systemInstruction, CONTENT, "systemInstruction");
    for (const [at, entry] of request.systemInstruction.parts.entries())
      refuseUnknownMembers(entry, SYSTEM_PART, `systemInstruction.parts[${at}]`);
  }
  for (const [index, tool] of (request.tools ?? []).entries())
    for (const [at, declaration] of (tool.functionDeclarations ?? []).entries())
      refuseUnknownMembers(declaration, DECLARATION, `tools[${index}].functionDeclarations[${at}]`);
  refuseUnknownMembers(request.toolConfig, TOOL_CONFIG, "toolConfig");
  refuseUnknownMembers(
    request.toolConfig?.functionCallingConfig,
    CALLING_CONFIG,
    "toolConfig.functionCallingConfig",
  );
  refuseUnknownMembers(
    request.generationConfig?.thinkingConfig,
    THINKING_CONFIG,
    "generationConfig.thinkingConfig",
  );
}

function applyConfig(config: GenerateContentRequest["generationConfig"], chat: ChatRequest): void {
  if (!config) return;
  const set = (name: string, value: unknown) => {
    if (value !== undefined) chat[name] = value;
  };
  set("temperature", config.temperature);
  set("top_p", config.topP);
  set("top_k", config.topK);
  set("max_tokens", config.maxOutputTokens);
  set("n", config.candidateCount);
  if (config.stopSequences && config.stopSequences.length > 0) chat.stop = config.stopSequences;
  set("seed", config.seed);
  set("presence_penalty", config.presencePenalty);
  set("frequency_penalty", config.frequencyPenalty);
  const reasoning = reasoningFrom(config.thinkingConfig);
  if (reasoning) chat.reasoning = reasoning;
  const schema =
    config.responseJsonSchema ?? (config.responseSchema ? lowerTypes(config.responseSchema) : undefined);
  if (schema) chat.response_format = { type: "json_schema", json_schema: { name: "response", schema } };
  else if (config.responseMimeType === "application/json") chat.response_format = { type: "json_object" };
}

/**
 * `thinkingConfig` as OpenRouter's reasoning object: budget 0 is off, -1 is dynamic (on, no amount),
 * a positive budget is `max_tokens`, Gemini 3's `thinkingLevel` an effort. Gemini returns thoughts only
 * with `includeThoughts: true`, so without it they are excluded (`exclude`), as Gemini would.
 */
function reasoningFrom(value: unknown): Record<string, unknown> | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const thinking = value as { thinkingBudget?: unknown; includeThoughts?: unknown; thinkingLevel?: unknown };
  const exclude = thinking.includeThoughts !== true ? { exclude: true } : {};
  const budget = thinking.thinkingBudget;
  if (budget === 0) return { enabled: false };
  if (typeof budget === "number" && budget > 0) return { max_tokens: budget, ...exclude };
  if (typeof budget === "number" && budget !== -1)
    return untranslatable(
      "generationConfig.thinkingConfig.thinkingBudget",
      "expected 0, -1 or a positive count",
    );
  if (typeof thinking.thinkingLevel === "string")
    return { effort: thinking.thinkingLevel.toLowerCase(), ...exclude };
  if (budget === -1 || thinking.includeThoughts === true) return { enabled: true, ...exclude };
  return undefined;
}

function functionTools(tools: GenerateContentRequest["tools"]): NonNullable<ChatRequest["tools"]> {
  return (tools ?? []).flatMap((tool, index) => {
    const { functionDeclarations, ...others } = tool;
    const other = Object.keys(others)[0];
    if (other)
      // Not a bare path: a built-in tool is billed beyond tokens, so it stays a 400 even for Gemini.
      return untranslatable(
        `tools[${index}].${other} (built-in tool)`,
        "Gemini's built-in tools only run on Gemini",
      );
    return (functionDeclarations ?? []).map((declaration) => ({
      type: "function",
      function: {
        name: declaration.name,
        ...(typeof declaration.description === "string" ? { description: declaration.description } : {}),
        parameters:
          declaration.parametersJsonSchema ??
          lowerTypes(declaration.parameters ?? { type: "OBJECT", properties: {} }),
      },
    }));
  });
}

/** Gemini's OpenAPI-subset schemas spell types in upper case; JSON Schema wants lower case. */
function lowerTypes(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(lowerTypes);
  if (typeof schema !== "object" || schema === null) return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([name, value]) => [
      name,
      name === "type" && typeof value === "string" ? value.toLowerCase() : lowerTypes(value),
    ]),
  );
}

function toolChoice(config: { mode?: string; allowedFunctionNames?: string[] } | undefined): unknown {
  if (!config?.mode) return undefined;
  if (config.mode === "NONE") return "none";
  if (config.mode === "ANY" || config.mode === "VALIDATED") {
    const names = config.allowedFunctionNames ?? [];
    if (names.length === 1) return { type: "function", function: { name: names[0] } };
    if (names.length > 1)
      return untranslatable(
        "toolConfig.functionCallingConfig.allowedFunctionNames",
        "only one name translates",
      );
    return "required";
  }
  return "auto";
}
