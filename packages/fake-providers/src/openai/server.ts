import { sendJson } from "../core/http.js";
import { hexId } from "../core/ids.js";
import {
  type ExchangeContext,
  type FakeServer,
  type FakeServerOptions,
  type ProviderDefinition,
  startFakeServer,
} from "../core/server.js";
import { handleChatCompletion, type OpenAiFlavour } from "./chat.js";
import { handleEmbeddings } from "./embeddings.js";
import { authenticateOpenAi, sendOpenAiError } from "./errors.js";
import { CHAT_FIELDS } from "./fields.js";

export interface FakeOpenAiOptions extends FakeServerOptions {
  /**
   * Run as Model Gateway's built-in demo provider: replies say so plainly, the model list is the demo's, and
   * no credential is required unless `requireKey` says otherwise.
   */
  readonly demo?: boolean;
  /**
   * Chat fields this host accepts beyond OpenAI's own (e.g. `reasoning` when faking OpenRouter); every
   * other unknown top-level field is refused as OpenAI refuses it.
   */
  readonly extraChatFields?: readonly string[];
}

// What GET /v1/models lists when no `knownModels` are configured; `created` values are OpenAI's own.
const DEFAULT_MODELS: readonly { id: string; created: number }[] = [
  { id: "gpt-4o-mini", created: 1721172741 },
  { id: "gpt-4o", created: 1715367049 },
  { id: "text-embedding-3-small", created: 1705948997 },
  { id: "text-embedding-3-large", created: 1705953180 },
];
const DEMO_MODELS: readonly { id: string; created: number }[] = [
  { id: "echo", created: 1767225600 },
  { id: "echo-embedding", created: 1767225600 },
];

/** Starts a fake of the OpenAI API (and of every OpenAI-compatible provider) on loopback. */
export function startFakeOpenAi(options: FakeOpenAiOptions = {}): Promise<FakeServer> {
  const demo = options.demo ?? false;
  const flavour: OpenAiFlavour = {
    demo,
    systemFingerprint: demo ? "fp_gateway_demo" : "fp_fake_openai",
    chatFields: new Set([...CHAT_FIELDS, ...(options.extraChatFields ?? [])]),
  };
  const models = options.knownModels
    ? options.knownModels.map((id) => ({ id, created: 1715367049 }))
    : demo
      ? DEMO_MODELS
      : DEFAULT_MODELS;
  const ownedBy = demo ? "model-gateway-demo" : "system";

  const definition: ProviderDefinition = {
    name: "openai",
    basePath: "/v1",
    requestIdHeader: "x-request-id",
    newRequestId: () => hexId("req_", 16),
    authenticate: authenticateOpenAi,
    sendError: sendOpenAiError,
    async handle(ctx: ExchangeContext) {
      ctx.res.setHeader("openai-version", "2020-10-01");
      ctx.res.setHeader("openai-processing-ms", "1");
      const route = `${ctx.req.method} ${ctx.url.pathname}`;
      if (route === "POST /v1/chat/completions") return handleChatCompletion(ctx, flavour);
      if (route === "POST /v1/embeddings") return handleEmbeddings(ctx);
      if (route === "GET /v1/models") {
        return sendJson(ctx.res, 200, {
          object: "list",
          data: models.map((m) => ({ id: m.id, object: "model", created: m.created, owned_by: ownedBy })),
        });
      }
      const modelPath = /^\/v1\/models\/(.+)$/.exec(ctx.url.pathname);
      if (ctx.req.method === "GET" && modelPath?.[1]) {
        const id = decodeURIComponent(modelPath[1]);
        const found = models.find((m) => m.id === id);
        if (!found) {
          return sendOpenAiError(ctx, {
            status: 404,
            message: `The model '${id}' does not exist`,
            param: "model",
            code: "model_not_found",
          });
        }
        return sendJson(ctx.res, 200, { id, object: "model", created: found.created, owned_by: ownedBy });
      }
      sendOpenAiError(ctx, { status: 404, message: `Invalid URL (${ctx.req.method} ${ctx.url.pathname})` });
    },
  };
  return startFakeServer(definition, { ...options, requireKey: options.requireKey ?? !demo });
}
