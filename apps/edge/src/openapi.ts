import { MODEL_CATEGORIES } from "@gw/catalog";
import {
  ANY_KEY_SECURITY,
  dataOf,
  errorResponses,
  eventStream,
  healthSchema,
  INFERENCE_SECURITY,
  json,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
} from "@gw/openapi";
import { z } from "zod";
import { chatRequestSchema } from "./canonical/chat-request.js";
import {
  anthropicMessageSchema,
  chatCompletionSchema,
  embeddingsSchema,
  geminiGenerateSchema,
  keyInfoSchema,
  messageBatchListSchema,
  messageBatchSchema,
  modelEntrySchema,
  modelListSchema,
  openRouterModelListSchema,
  readinessSchema,
} from "./openapi-schemas.js";
import { createBatchSchema } from "./translate/anthropic/batches.js";
import { countTokensRequestSchema, messagesRequestSchema } from "./translate/anthropic/messages-request.js";
import { completionsRequestSchema } from "./translate/completions/request.js";
import { batchEmbedContentsSchema, embedContentSchema } from "./translate/gemini/embed.js";
import { generateContentSchema } from "./translate/gemini/generate-request.js";
import { embeddingsRequestSchema } from "./translate/openai/embeddings.js";
import { responsesRequestSchema } from "./translate/responses/request-schema.js";

// The routes the edge serves itself (app.ts), request schemas as the routes parse them. The management
// routes it forwards are described by their owning apps (keys, billing, generations).

const INFERENCE_STATUSES = [400, 401, 402, 403, 404, 408, 413, 429, 500, 502, 503, 504];
const openAiErrors = errorResponses("openai", INFERENCE_STATUSES);
const anthropicErrors = errorResponses("anthropic", INFERENCE_STATUSES);
const geminiErrors = errorResponses("gemini", INFERENCE_STATUSES);

const generationIdHeader = z.object({
  "x-generation-id": z.string().meta({
    description:
      "The generation id: look it up at /api/v1/generation. Only on a request that passed admission (it will have a record, served or failed); a request refused before (401, 402, 404, 429, 503…) has none.",
  }),
});

/** One operation under several paths (the `/api/v1` aliases): OpenAPI wants one id per operation. */
function aliased(paths: string[], method: "get" | "post", operation: ZodOpenApiOperationObject) {
  const result: ZodOpenApiPathsObject = {};
  paths.forEach((path, index) => {
    const operationId = index === 0 ? operation.operationId : `${operation.operationId}Alias${index}`;
    result[path] = { [method]: { ...operation, operationId } };
  });
  return result;
}

function answer(description: string, schema: z.ZodType, streamed: string) {
  return {
    "200": {
      description,
      headers: generationIdHeader,
      content: { ...json(schema), ...eventStream(streamed) },
    },
  };
}

const inference: ZodOpenApiPathsObject = {
  ...aliased(["/v1/chat/completions", "/api/v1/chat/completions"], "post", {
    operationId: "createChatCompletion",
    tags: ["inference"],
    summary: "OpenAI chat completions, routed to any provider",
    security: INFERENCE_SECURITY,
    requestBody: { required: true, content: json(chatRequestSchema) },
    responses: {
      ...answer(
        "The completion, or with `stream: true` its chunks.",
        chatCompletionSchema,
        "chat.completion.chunk events",
      ),
      ...openAiErrors,
    },
  }),
  ...aliased(["/v1/responses", "/api/v1/responses"], "post", {
    operationId: "createResponse",
    tags: ["inference"],
    summary: "OpenAI Responses API (stateless), routed to any provider",
    security: INFERENCE_SECURITY,
    requestBody: { required: true, content: json(responsesRequestSchema) },
    responses: {
      ...answer(
        "The response object, or with `stream: true` its events.",
        z.looseObject({ object: z.literal("response") }),
        "response.* events",
      ),
      ...openAiErrors,
    },
  }),
  ...aliased(["/v1/completions", "/api/v1/completions"], "post", {
    operationId: "createCompletion",
    tags: ["inference"],
    summary: "OpenAI legacy completions (a prompt), served through chat on any provider",
    security: INFERENCE_SECURITY,
    requestBody: { required: true, content: json(completionsRequestSchema) },
    responses: {
      ...answer(
        "The text_completion, or with `stream: true` its chunks.",
        z.looseObject({
          object: z.literal("text_completion"),
          choices: z.array(z.looseObject({ text: z.string() })),
        }),
        "text_completion chunks",
      ),
      ...openAiErrors,
    },
  }),
  ...aliased(["/v1/embeddings", "/api/v1/embeddings"], "post", {
    operationId: "createEmbeddings",
    tags: ["inference"],
    summary: "OpenAI embeddings",
    security: INFERENCE_SECURITY,
    requestBody: { required: true, content: json(embeddingsRequestSchema) },
    responses: {
      "200": { description: "The vectors.", headers: generationIdHeader, content: json(embeddingsSchema) },
      ...openAiErrors,
    },
  }),
  "/v1/messages": {
    post: {
      operationId: "createMessage",
      tags: ["inference"],
      summary: "Anthropic Messages, routed to any provider",
      security: INFERENCE_SECURITY,
      requestBody: { required: true, content: json(messagesRequestSchema) },
      responses: {
        ...answer(
          "The message, or with `stream: true` Anthropic's events.",
          anthropicMessageSchema,
          "message_start … message_stop events",
        ),
        ...anthropicErrors,
      },
    },
  },
  "/v1/messages/count_tokens": {
    post: {
      operationId: "countMessageTokens",
      tags: ["inference"],
      summary: "Count a prompt's tokens with the gateway's tokenizer",
      security: INFERENCE_SECURITY,
      requestBody: { required: true, content: json(countTokensRequestSchema) },
      responses: {
        "200": { description: "The count.", content: json(z.object({ input_tokens: z.number().int() })) },
        ...anthropicErrors,
      },
    },
  },
};

const geminiModel = z.object({
  model: z.string().meta({ description: "A catalogue model id (may be URL-encoded)." }),
});
const GEMINI_ROUTES = ["/v1beta/models/*rest", "/v1/models/*rest", "/v1beta/:author/*rest"];

function geminiMethod(
  method: string,
  summary: string,
  body: z.ZodType,
  ok: ZodOpenApiOperationObject["responses"],
) {
  return {
    [`/v1beta/models/{model}:${method}`]: {
      post: {
        operationId: `gemini${method[0]?.toUpperCase()}${method.slice(1)}`,
        tags: ["inference"],
        summary,
        description: `Also served under \`/v1/models/{model}:${method}\` (where @google/genai 3 sends it) and, for a catalogue id \`{author}/{slug}\`, under \`/v1beta/{author}/{slug}:${method}\` (where @ai-sdk/google and LangChain's Google client send it).`,
        security: INFERENCE_SECURITY,
        requestParams: { path: geminiModel },
        requestBody: { required: true, content: json(body) },
        responses: { ...ok, ...geminiErrors },
        "x-express-routes": GEMINI_ROUTES,
      },
    },
  } satisfies ZodOpenApiPathsObject;
}

const gemini: ZodOpenApiPathsObject = {
  ...geminiMethod(
    "generateContent",
    "Gemini generateContent, routed to any provider",
    generateContentSchema,
    {
      "200": { description: "The answer.", headers: generationIdHeader, content: json(geminiGenerateSchema) },
    },
  ),
  ...geminiMethod(
    "streamGenerateContent",
    "Gemini streamGenerateContent (`?alt=sse`)",
    generateContentSchema,
    {
      "200": {
        description: "The answer's frames.",
        headers: generationIdHeader,
        content: eventStream("GenerateContentResponse frames"),
      },
    },
  ),
  ...geminiMethod("countTokens", "Count a Gemini prompt's tokens", generateContentSchema, {
    "200": { description: "The count.", content: json(z.object({ totalTokens: z.number().int() })) },
  }),
  ...geminiMethod("embedContent", "Gemini embedContent", embedContentSchema, {
    "200": {
      description: "The vector.",
      content: json(z.looseObject({ embedding: z.looseObject({ values: z.array(z.number()) }) })),
    },
  }),
  ...geminiMethod("batchEmbedContents", "Gemini batchEmbedContents", batchEmbedContentsSchema, {
    "200": {
      description: "The vectors.",
      content: json(z.looseObject({ embeddings: z.array(z.looseObject({ values: z.array(z.number()) })) })),
    },
  }),
};

const batchId = z.object({ id: z.string() });
const batchOperation = (operation: Omit<ZodOpenApiOperationObject, "tags" | "security">) => ({
  ...operation,
  tags: ["batches"],
  security: INFERENCE_SECURITY,
  responses: { ...operation.responses, ...anthropicErrors },
});

const batches: ZodOpenApiPathsObject = {
  "/v1/messages/batches": {
    post: batchOperation({
      operationId: "createMessageBatch",
      summary: "Create an Anthropic message batch (run by the gateway against any provider)",
      requestBody: { required: true, content: json(createBatchSchema) },
      responses: { "200": { description: "The batch.", content: json(messageBatchSchema) } },
    }),
    get: batchOperation({
      operationId: "listMessageBatches",
      summary: "List the account's batches, newest first",
      requestParams: {
        query: z.object({
          limit: z.number().int().min(1).max(1000).optional(),
          before_id: z.string().optional(),
          after_id: z.string().optional(),
        }),
      },
      responses: { "200": { description: "One page.", content: json(messageBatchListSchema) } },
    }),
  },
  "/v1/messages/batches/{id}": {
    get: batchOperation({
      operationId: "getMessageBatch",
      summary: "Get a batch",
      requestParams: { path: batchId },
      responses: { "200": { description: "The batch.", content: json(messageBatchSchema) } },
    }),
    delete: batchOperation({
      operationId: "deleteMessageBatch",
      summary: "Delete an ended batch",
      requestParams: { path: batchId },
      responses: {
        "200": {
          description: "Deleted.",
          content: json(z.object({ id: z.string(), type: z.literal("message_batch_deleted") })),
        },
      },
    }),
  },
  "/v1/messages/batches/{id}/cancel": {
    post: batchOperation({
      operationId: "cancelMessageBatch",
      summary: "Cancel a batch's unstarted requests",
      requestParams: { path: batchId },
      responses: { "200": { description: "The batch.", content: json(messageBatchSchema) } },
    }),
  },
  "/v1/messages/batches/{id}/results": {
    get: batchOperation({
      operationId: "getMessageBatchResults",
      summary: "An ended batch's results, one JSON object per line",
      requestParams: { path: batchId },
      responses: {
        "200": {
          description: "JSON Lines: `{custom_id, result}` per request.",
          content: { "application/x-jsonl": { schema: z.string() } },
        },
      },
    }),
  },
};

const modelFilterQuery = z.object({
  supported_parameters: z.string().optional().meta({
    description: "Comma-separated: only models supporting all of them.",
    example: "tools,response_format",
  }),
  category: z.enum(MODEL_CATEGORIES).optional().meta({
    description: "OpenRouter's use-case categories; the catalogue's models are all general-purpose.",
  }),
});

const models: ZodOpenApiPathsObject = {
  ...aliased(["/v1/models", "/v1beta/models"], "get", {
    operationId: "listModels",
    tags: ["models"],
    summary: "The models the calling key can use, in the caller's SDK's dialect",
    description:
      "OpenAI's list by default; Anthropic's page when `anthropic-version` is sent; Gemini's list under " +
      "/v1beta or with `x-goog-api-key`.",
    security: ANY_KEY_SECURITY,
    requestParams: { query: modelFilterQuery },
    responses: { "200": { description: "The models.", content: json(modelListSchema) }, ...openAiErrors },
  }),
  "/api/v1/models/user": {
    get: {
      operationId: "listUserModels",
      tags: ["models"],
      summary: "The models the calling key may use, in OpenRouter's list (allow-lists, BYOK-only providers)",
      security: ANY_KEY_SECURITY,
      requestParams: { query: modelFilterQuery },
      responses: {
        "200": { description: "The models.", content: json(openRouterModelListSchema) },
        ...openAiErrors,
      },
    },
  },
  "/v1/models/{id}": {
    get: {
      operationId: "getModel",
      tags: ["models"],
      summary: "One model (ids contain a slash: /v1/models/openai/gpt-4o-mini)",
      description:
        "Also under /v1beta/models/{id}. A model the key cannot use is a 404, like an unknown one.",
      security: ANY_KEY_SECURITY,
      requestParams: { path: z.object({ id: z.string().meta({ description: "author/slug" }) }) },
      responses: { "200": { description: "The model.", content: json(modelEntrySchema) }, ...openAiErrors },
      "x-express-routes": ["/v1/models/*id", "/v1beta/models/*id"],
    },
  },
  ...aliased(["/v1/key", "/api/v1/key"], "get", {
    operationId: "getCurrentKey",
    tags: ["keys"],
    summary: "The calling key's limits and spend",
    security: ANY_KEY_SECURITY,
    responses: { "200": { description: "The key.", content: json(dataOf(keyInfoSchema)) }, ...openAiErrors },
  }),
};

const proxyParams = z.object({
  provider: z.string().meta({ description: "A catalogue provider id, e.g. openai, anthropic, google." }),
  path: z.string().meta({ description: "The provider's own API path, e.g. v1/chat/completions." }),
});
const proxyOperation = (method: string): ZodOpenApiOperationObject => ({
  operationId: `proxy${method}`,
  tags: ["proxy"],
  summary: `${method} a provider's native API through the gateway (metered, keys from the gateway or BYOK)`,
  security: INFERENCE_SECURITY,
  requestParams: { path: proxyParams },
  ...(method === "Post" ? { requestBody: { required: true, content: json(z.looseObject({})) } } : {}),
  responses: {
    "200": { description: "The provider's own answer, passed through.", content: json(z.unknown()) },
    ...openAiErrors,
  },
  "x-express-routes": ["/{provider}/*path"],
});

const proxy: ZodOpenApiPathsObject = {
  "/{provider}/{path}": { get: proxyOperation("Get"), post: proxyOperation("Post") },
};

const operations: ZodOpenApiPathsObject = {
  "/healthz": {
    get: {
      operationId: "edgeHealth",
      tags: ["operations"],
      summary: "Liveness: the process answers",
      security: [],
      responses: { "200": { description: "Alive.", content: json(healthSchema) } },
    },
  },
  "/readyz": {
    get: {
      operationId: "edgeReadiness",
      tags: ["operations"],
      summary: "Readiness: a catalogue snapshot is loaded (the event backlog is reported)",
      security: [],
      responses: {
        "200": { description: "Ready.", content: json(readinessSchema) },
        "503": { description: "Not ready, or draining (shutting down).", content: json(readinessSchema) },
      },
    },
  },
  "/openapi.json": {
    get: {
      operationId: "openApiDocument",
      tags: ["operations"],
      summary: "This document",
      security: [],
      responses: {
        "200": { description: "OpenAPI 3.1.", content: json(z.looseObject({ openapi: z.string() })) },
      },
    },
  },
};

export const edgeOpenApiPaths: ZodOpenApiPathsObject = {
  ...inference,
  ...gemini,
  ...batches,
  ...models,
  ...proxy,
  ...operations,
};
