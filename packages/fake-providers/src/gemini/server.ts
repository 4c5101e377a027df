import { sendJson } from "../core/http.js";
import {
  type ExchangeContext,
  type FakeServer,
  type FakeServerOptions,
  type ProviderDefinition,
  startFakeServer,
} from "../core/server.js";
import { handleBatchEmbedContents, handleEmbedContent } from "./embed.js";
import { authenticateGemini, GEMINI_JSON, sendGeminiError } from "./errors.js";
import { handleCountTokens, handleGenerate } from "./generate.js";

export interface FakeGeminiOptions extends FakeServerOptions {
  /** Replies say they come from Model Gateway's built-in demo. */
  readonly demo?: boolean;
}

const DEFAULT_MODELS = ["gemini-2.5-flash", "gemini-2.5-pro", "text-embedding-004", "gemini-embedding-001"];

// `/v1beta/models/gemini-2.5-flash:generateContent`; the colon may arrive percent-encoded.
const METHOD_PATH = /^\/(v1beta|v1)\/models\/([^/:]+):([A-Za-z]+)$/;
const MODEL_PATH = /^\/(v1beta|v1)\/models\/([^/:]+)$/;

/** Starts a fake of the Gemini Developer API (generativelanguage) on loopback. */
export function startFakeGemini(options: FakeGeminiOptions = {}): Promise<FakeServer> {
  const demo = options.demo ?? false;
  const models = options.knownModels ?? DEFAULT_MODELS;
  const describe = (id: string) => ({
    name: `models/${id}`,
    version: "001",
    displayName: id,
    description: `Fake ${id}`,
    inputTokenLimit: id.includes("embedding") ? 2048 : 1_048_576,
    outputTokenLimit: id.includes("embedding") ? 1 : 65_536,
    supportedGenerationMethods: id.includes("embedding")
      ? ["embedContent", "batchEmbedContents"]
      : ["generateContent", "countTokens"],
  });

  const definition: ProviderDefinition = {
    name: "gemini",
    basePath: "",
    requestIdHeader: null,
    newRequestId: () => "",
    authenticate: authenticateGemini,
    sendError: sendGeminiError,
    async handle(ctx: ExchangeContext) {
      const path = decodeURIComponent(ctx.url.pathname);
      const method = ctx.req.method;
      const call = METHOD_PATH.exec(path);
      if (method === "POST" && call) {
        const [, version = "v1beta", model = "", action = ""] = call;
        if (ctx.options.knownModels && !ctx.options.knownModels.includes(model)) {
          return sendGeminiError(ctx, {
            status: 404,
            message: `models/${model} is not found for API version ${version}, or is not supported for ${action}. Call ListModels to see the list of available models and their supported methods.`,
          });
        }
        switch (action) {
          case "generateContent":
            return handleGenerate(ctx, model, demo, false);
          case "streamGenerateContent":
            return handleGenerate(ctx, model, demo, true);
          case "countTokens":
            return handleCountTokens(ctx);
          case "embedContent":
            return handleEmbedContent(ctx, model);
          case "batchEmbedContents":
            return handleBatchEmbedContents(ctx, model);
        }
      }
      if (method === "GET" && /^\/(v1beta|v1)\/models$/.test(path)) {
        return sendJson(ctx.res, 200, { models: models.map(describe) }, {}, GEMINI_JSON);
      }
      const single = MODEL_PATH.exec(path);
      if (method === "GET" && single?.[2]) {
        const id = single[2];
        if (!models.includes(id))
          return sendGeminiError(ctx, { status: 404, message: `Model is not found: models/${id}` });
        return sendJson(ctx.res, 200, describe(id), {}, GEMINI_JSON);
      }
      sendGeminiError(ctx, { status: 404, message: `Method not found: ${method} ${path}` });
    },
  };
  return startFakeServer(definition, options);
}
