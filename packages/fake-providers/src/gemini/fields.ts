import { isRecord } from "../core/content.js";
import type { ProviderError } from "../core/server.js";

// The Gemini API parses request JSON as protocol buffers (https://ai.google.dev/api/generate-content,
// https://ai.google.dev/api/embeddings). Two consequences the fake reproduces:
// - a field may be spelled lowerCamelCase or with the proto's snake_case name ("Parsers accept both the
//   lowerCamelCase name ... and the original proto field name", protobuf.dev proto3 JSON mapping), so
//   `generation_config` and `generationConfig` are the same field;
// - any other name is refused with 400 INVALID_ARGUMENT `Invalid JSON payload received. Unknown name "x"
//   at 'generation_config': Cannot find field.`, the path in snake_case, every unknown name listed, and a
//   google.rpc.BadRequest detail with one fieldViolation each (as in
//   github.com/google-gemini/gemini-cli/issues/13972 and github.com/fishjar/kiss-translator/issues/256).
// A "struct" field (google.protobuf.Struct/Value: function args, JSON schemas) takes any JSON.

type FieldType = MessageType | "scalar" | "struct" | { readonly mapOf: MessageType };
interface MessageType {
  readonly [camelName: string]: FieldType | (() => FieldType);
}

const blob: MessageType = { mimeType: "scalar", data: "scalar" };
const functionCall: MessageType = { id: "scalar", name: "scalar", args: "struct" };
const part: MessageType = {
  text: "scalar",
  thought: "scalar",
  thoughtSignature: "scalar",
  inlineData: blob,
  fileData: { mimeType: "scalar", fileUri: "scalar" },
  functionCall,
  functionResponse: {
    id: "scalar",
    name: "scalar",
    response: "struct",
    willContinue: "scalar",
    scheduling: "scalar",
    parts: "struct",
  },
  executableCode: { language: "scalar", code: "scalar" },
  codeExecutionResult: { outcome: "scalar", output: "scalar" },
  videoMetadata: { startOffset: "scalar", endOffset: "scalar", fps: "scalar" },
  partMetadata: "struct",
  mediaResolution: "struct",
};
const content: MessageType = { role: "scalar", parts: part };

// Gemini's OpenAPI-subset Schema: JSON Schema keywords outside it (additionalProperties, $schema, const)
// are unknown names, the error clients hit when they pass raw JSON schemas as `parameters`.
const schema: MessageType = {
  type: "scalar",
  format: "scalar",
  title: "scalar",
  description: "scalar",
  nullable: "scalar",
  enum: "scalar",
  maxItems: "scalar",
  minItems: "scalar",
  properties: () => ({ mapOf: schema }),
  required: "scalar",
  minProperties: "scalar",
  maxProperties: "scalar",
  minLength: "scalar",
  maxLength: "scalar",
  pattern: "scalar",
  example: "struct",
  anyOf: () => schema,
  propertyOrdering: "scalar",
  default: "struct",
  items: () => schema,
  minimum: "scalar",
  maximum: "scalar",
};

const tool: MessageType = {
  functionDeclarations: {
    name: "scalar",
    description: "scalar",
    behavior: "scalar",
    parameters: schema,
    parametersJsonSchema: "struct",
    response: schema,
    responseJsonSchema: "struct",
  },
  googleSearchRetrieval: "struct",
  codeExecution: "struct",
  // ai.google.dev GoogleSearch: an optional time range and (Vertex) excluded domains, nothing else.
  googleSearch: { timeRangeFilter: { startTime: "scalar", endTime: "scalar" }, excludeDomains: "scalar" },
  urlContext: "struct",
  computerUse: "struct",
  fileSearch: "struct",
  googleMaps: "struct",
};

const generationConfig: MessageType = {
  stopSequences: "scalar",
  responseMimeType: "scalar",
  responseSchema: schema,
  responseJsonSchema: "struct",
  responseModalities: "scalar",
  candidateCount: "scalar",
  maxOutputTokens: "scalar",
  temperature: "scalar",
  topP: "scalar",
  topK: "scalar",
  seed: "scalar",
  presencePenalty: "scalar",
  frequencyPenalty: "scalar",
  responseLogprobs: "scalar",
  logprobs: "scalar",
  enableEnhancedCivicAnswers: "scalar",
  speechConfig: "struct",
  thinkingConfig: { includeThoughts: "scalar", thinkingBudget: "scalar", thinkingLevel: "scalar" },
  imageConfig: "struct",
  mediaResolution: "scalar",
};

export const GENERATE_REQUEST: MessageType = {
  model: "scalar",
  contents: content,
  tools: tool,
  toolConfig: {
    functionCallingConfig: { mode: "scalar", allowedFunctionNames: "scalar" },
    retrievalConfig: "struct",
  },
  safetySettings: { category: "scalar", threshold: "scalar" },
  systemInstruction: content,
  generationConfig,
  cachedContent: "scalar",
};

export const COUNT_TOKENS_REQUEST: MessageType = {
  contents: content,
  generateContentRequest: GENERATE_REQUEST,
};

export const EMBED_CONTENT_REQUEST: MessageType = {
  model: "scalar",
  content,
  taskType: "scalar",
  title: "scalar",
  outputDimensionality: "scalar",
};

export const BATCH_EMBED_REQUEST: MessageType = { requests: EMBED_CONTENT_REQUEST };

const camel = (name: string) => name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * The body with every field name in camelCase, or the API's 400 naming every unknown field. Values of
 * repeated fields are checked element by element; scalars are left to the handlers.
 */
export function normalizeFields(body: unknown, type: MessageType): { value: unknown } | ProviderError {
  const unknown: { name: string; at: string }[] = [];
  const value = walk(body, type, "", unknown);
  if (unknown.length === 0) return { value };
  const describe = ({ name, at }: { name: string; at: string }) =>
    `Invalid JSON payload received. Unknown name "${name}"${at === "" ? "" : ` at '${at}'`}: Cannot find field.`;
  return {
    status: 400,
    message: unknown.map(describe).join("\n"),
    details: [
      {
        "@type": "type.googleapis.com/google.rpc.BadRequest",
        fieldViolations: unknown.map((u) => ({
          ...(u.at === "" ? {} : { field: u.at }),
          description: describe(u),
        })),
      },
    ],
  };
}

function walk(value: unknown, type: FieldType, at: string, unknown: { name: string; at: string }[]): unknown {
  if (type === "scalar" || type === "struct") return value;
  if (Array.isArray(value)) return value.map((item, i) => walk(item, type, `${at}[${i}]`, unknown));
  if (!isRecord(value)) return value;
  if ("mapOf" in type && typeof type.mapOf === "object") {
    const inner = type.mapOf as MessageType;
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, walk(item, inner, `${at}[${key}].value`, unknown)]),
    );
  }
  const message = type as MessageType;
  const out: Record<string, unknown> = {};
  for (const [name, item] of Object.entries(value)) {
    const key = camel(name);
    // Own fields only: `constructor` or `toString` in a body are unknown names, not Object's.
    const field = Object.hasOwn(message, key) ? message[key] : undefined;
    if (field === undefined) {
      unknown.push({ name, at });
      continue;
    }
    const fieldType = typeof field === "function" ? field() : field;
    out[key] = walk(item, fieldType, at === "" ? snake(key) : `${at}.${snake(key)}`, unknown);
  }
  return out;
}
