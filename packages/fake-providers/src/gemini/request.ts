import { isRecord } from "../core/content.js";
import type { ProviderError } from "../core/server.js";
import { googleSearchOf } from "./grounding.js";
import { checkInlineData, type ModalityTokens, modalityTokens } from "./media.js";

export interface GeminiContent {
  readonly role: string;
  readonly text: string;
  /** JSON of the function responses in this content, if any. */
  readonly functionResponse: string | null;
}

export interface GeminiTool {
  readonly name: string;
  readonly parameters: unknown;
}

export interface GenerateRequest {
  readonly contents: readonly GeminiContent[];
  readonly system: string;
  readonly tools: readonly GeminiTool[];
  /** "AUTO" | "ANY" | "NONE" | "VALIDATED" */
  readonly mode: string;
  readonly allowed: readonly string[];
  readonly maxOutputTokens: number | undefined;
  /** The inline media's tokens by modality (media.ts). */
  readonly media: ModalityTokens;
  /** Grounding with Google Search is on (grounding.ts). */
  readonly googleSearch: boolean;
}

export function parseGenerateRequest(body: unknown): GenerateRequest | ProviderError {
  if (!isRecord(body)) return { status: 400, message: "Invalid JSON payload received." };
  const contents = parseContents(body.contents);
  if (contents === null || contents.length === 0) {
    return { status: 400, message: "* GenerateContentRequest.contents: contents is not specified\n" };
  }
  const media = checkInlineData(body.contents);
  if (media) return media;
  const generationConfig = isRecord(body.generationConfig) ? body.generationConfig : {};
  const max = generationConfig.maxOutputTokens;
  if (max !== undefined && (!Number.isInteger(max) || (max as number) < 1)) {
    return {
      status: 400,
      message: "* GenerateContentRequest.generation_config.max_output_tokens: must be positive\n",
    };
  }
  const googleSearch = googleSearchOf(body.tools);
  if (typeof googleSearch !== "boolean") return googleSearch;
  const calling =
    isRecord(body.toolConfig) && isRecord(body.toolConfig.functionCallingConfig)
      ? body.toolConfig.functionCallingConfig
      : {};
  return {
    contents,
    system: isRecord(body.systemInstruction) ? partsText(body.systemInstruction.parts) : "",
    tools: Array.isArray(body.tools) ? body.tools.flatMap(parseTool) : [],
    mode: typeof calling.mode === "string" ? calling.mode : "AUTO",
    allowed: Array.isArray(calling.allowedFunctionNames)
      ? calling.allowedFunctionNames.filter((n): n is string => typeof n === "string")
      : [],
    maxOutputTokens: typeof max === "number" ? max : undefined,
    media: modalityTokens(body.contents),
    googleSearch,
  };
}

/** `:countTokens` takes either `contents` or a whole `generateContentRequest`. */
export function parseCountRequest(body: unknown): GenerateRequest | ProviderError {
  if (isRecord(body) && isRecord(body.generateContentRequest)) {
    if (body.contents !== undefined) {
      return { status: 400, message: "contents and generateContentRequest are mutually exclusive" };
    }
    return parseGenerateRequest(body.generateContentRequest);
  }
  return parseGenerateRequest(body);
}

export function parseContents(value: unknown): GeminiContent[] | null {
  if (!Array.isArray(value)) return null;
  const contents: GeminiContent[] = [];
  for (const item of value) {
    if (!isRecord(item)) return null;
    const parts = Array.isArray(item.parts) ? item.parts : [];
    const responses = parts.filter((p) => isRecord(p) && isRecord(p.functionResponse));
    contents.push({
      role: typeof item.role === "string" ? item.role : "user",
      text: partsText(parts),
      functionResponse:
        responses.length === 0
          ? null
          : responses.map((p) => JSON.stringify((p as Record<string, unknown>).functionResponse)).join("\n"),
    });
  }
  return contents;
}

/** Text of parts, including function calls and responses (they count as prompt tokens). */
export function partsText(parts: unknown): string {
  if (!Array.isArray(parts)) return "";
  const texts: string[] = [];
  for (const part of parts) {
    if (!isRecord(part)) continue;
    if (typeof part.text === "string") texts.push(part.text);
    else if (isRecord(part.functionCall)) texts.push(JSON.stringify(part.functionCall));
    else if (isRecord(part.functionResponse)) texts.push(JSON.stringify(part.functionResponse));
  }
  return texts.join("\n");
}

function parseTool(tool: unknown): GeminiTool[] {
  if (!isRecord(tool) || !Array.isArray(tool.functionDeclarations)) return [];
  return tool.functionDeclarations.flatMap((d) =>
    isRecord(d) && typeof d.name === "string"
      ? [{ name: d.name, parameters: d.parametersJsonSchema ?? d.parameters }]
      : [],
  );
}
