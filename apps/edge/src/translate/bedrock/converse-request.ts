import { type ChatMessage, type ChatRequest, requestedMaxTokens } from "../../canonical/chat-request.js";
import { mediaSupport } from "../media-support.js";
import {
  type ContentPiece,
  contentPieces,
  contentText,
  functionTools,
  parseArguments,
  stopSequences,
  systemPrompt,
  toolCalls,
  toolChoice,
} from "../openai/content.js";
import { describePiece } from "../openai/media-parts.js";
import { refuseForeignFields } from "../target-fields.js";
import { untranslatable } from "../untranslatable.js";

type Block = Record<string, unknown>;
interface ConverseMessage {
  role: "user" | "assistant";
  content: Block[];
}

// Converse's ImageBlock formats (API reference, ImageBlock.format).
const IMAGE_FORMATS: Readonly<Record<string, string>> = {
  "image/png": "png",
  "image/jpeg": "jpeg",
  "image/gif": "gif",
  "image/webp": "webp",
};

/**
 * A canonical chat request as a Bedrock Converse body (API reference, Converse): system messages as
 * `system` text blocks, the turns as `messages` of content blocks (text, image bytes, toolUse,
 * toolResult) with consecutive turns of one role merged (Converse requires them to alternate), the
 * sampling fields in `inferenceConfig`, function tools in `toolConfig`. The model id is in the path.
 * What Converse has no field for across models (top_k, reasoning, response_format, n > 1) is refused by
 * name rather than dropped; parameters that change no content (seed, penalties, user) are dropped as
 * the field table says.
 */
export function converseRequestBody(request: ChatRequest): Record<string, unknown> {
  refuseForeignFields(request, "bedrock");
  if ((request.n ?? 1) > 1) untranslatable("n > 1", "Converse returns one choice per request");
  refuseWithoutConverseField(request);
  const body: Record<string, unknown> = { messages: converseMessages(request.messages) };
  const system = systemPrompt(request.messages);
  if (system !== undefined) body.system = [{ text: system }];
  const inference = inferenceConfig(request);
  if (Object.keys(inference).length > 0) body.inferenceConfig = inference;
  const tools = toolConfig(request);
  if (tools) body.toolConfig = tools;
  return body;
}

function refuseWithoutConverseField(request: ChatRequest): void {
  for (const field of ["top_k", "reasoning", "reasoning_effort", "response_format"] as const)
    if (request[field] !== undefined && request[field] !== null)
      untranslatable(field, "Bedrock's Converse API has no field for it across models");
}

function inferenceConfig(request: ChatRequest): Record<string, unknown> {
  const config: Record<string, unknown> = {};
  const maxTokens = requestedMaxTokens(request);
  if (maxTokens !== undefined) config.maxTokens = maxTokens;
  if (typeof request.temperature === "number") config.temperature = request.temperature;
  if (typeof request.top_p === "number") config.topP = request.top_p;
  const stops = stopSequences(request.stop);
  if (stops) config.stopSequences = stops;
  return config;
}

function toolConfig(request: ChatRequest): Record<string, unknown> | undefined {
  const tools = functionTools(request.tools);
  const choice = toolChoice(request.tool_choice);
  // Converse has no "none": a request that forbids tools is sent without them.
  if (tools.length === 0 || choice?.mode === "none") return undefined;
  const config: Record<string, unknown> = {
    tools: tools.map((tool) => ({
      toolSpec: {
        name: tool.name,
        ...(tool.description ? { description: tool.description } : {}),
        inputSchema: { json: tool.parameters ?? { type: "object", properties: {} } },
      },
    })),
  };
  if (choice?.mode === "required") config.toolChoice = { any: {} };
  if (choice?.mode === "auto") config.toolChoice = { auto: {} };
  if (choice?.mode === "function") config.toolChoice = { tool: { name: choice.name } };
  return config;
}

function converseMessages(messages: readonly ChatMessage[]): ConverseMessage[] {
  const documentNames = new Set<string>();
  const turns: ConverseMessage[] = [];
  for (const [index, message] of messages.entries()) {
    const path = `messages[${index}]`;
    const turn = converseTurn(message, path, documentNames);
    if (!turn) continue;
    const last = turns.at(-1);
    if (last?.role === turn.role) last.content.push(...turn.content);
    else turns.push(turn);
  }
  return turns;
}

function converseTurn(message: ChatMessage, path: string, names: Set<string>): ConverseMessage | undefined {
  if (message.role === "system" || message.role === "developer") return undefined;
  if (message.role === "tool") {
    const toolUseId = typeof message.tool_call_id === "string" ? message.tool_call_id : "";
    if (toolUseId === "") untranslatable(`${path}.tool_call_id`, "a tool result needs the call's id");
    const text = contentText(message.content, `${path}.content`);
    return { role: "user", content: [{ toolResult: { toolUseId, content: [{ text }] } }] };
  }
  const content = contentPieces(message.content, `${path}.content`).map((piece, part) =>
    converseBlock(piece, `${path}.content[${part}]`, names),
  );
  if (message.role === "assistant") {
    for (const [call, entry] of toolCalls(message, path).entries())
      content.push({
        toolUse: {
          toolUseId: entry.id,
          name: entry.name,
          input: parseArguments(entry.arguments, `${path}.tool_calls[${call}].function.arguments`),
        },
      });
    return { role: "assistant", content };
  }
  return { role: "user", content };
}

function converseBlock(piece: ContentPiece, path: string, names: Set<string>): Block {
  if (piece.kind === "text") return { text: piece.text };
  const support = mediaSupport(piece, "bedrock");
  if ("refuse" in support) return untranslatable(describePiece(piece, path), support.refuse);
  if (piece.kind === "image-url" || piece.kind === "file-url")
    return untranslatable(path, "Converse takes media bytes only; send it as a base64 data: URL");
  if (piece.kind === "file" && !piece.mediaType.startsWith("image/"))
    return documentBlock(piece, path, names);
  if (piece.kind !== "image" && piece.kind !== "file")
    return untranslatable(describePiece(piece, path), "Converse has no block for it");
  const format = IMAGE_FORMATS[piece.mediaType];
  if (format === undefined)
    return untranslatable(path, `Converse takes png, jpeg, gif or webp images, not ${piece.mediaType}`);
  return { image: { format, source: { bytes: piece.data } } };
}

/**
 * A PDF or text file as Converse's DocumentBlock (API reference, DocumentBlock): `name` is required and
 * may hold only letters, digits, single spaces, hyphens, parentheses and square brackets, so the file
 * name is reduced to those (the model sees it; the bytes are as sent). Names are unique in a request
 * (Converse refuses a repeated one): a repeat gets ` (2)`, ` (3)`, ….
 */
function documentBlock(
  piece: Extract<ContentPiece, { kind: "file" }>,
  path: string,
  names: Set<string>,
): Block {
  const format =
    piece.mediaType === "application/pdf" ? "pdf" : piece.mediaType === "text/plain" ? "txt" : undefined;
  if (format === undefined)
    return untranslatable(describePiece(piece, path), "Converse's documents here are PDF or plain text");
  const base = (piece.filename ?? "").replace(/\.[A-Za-z0-9]+$/, "");
  const name =
    base
      .replace(/[^A-Za-z0-9\-()[\] ]+/g, " ")
      .replace(/\s+/g, " ")
      .trim() || `document ${path.replace(/\D+/g, " ").trim()}`;
  let unique = name;
  for (let count = 2; names.has(unique); count += 1) unique = `${name} (${count})`;
  names.add(unique);
  return { document: { format, name: unique, source: { bytes: piece.data } } };
}
