import { sendAnthropicError } from "../anthropic/errors.js";
import { handleMessages } from "../anthropic/messages.js";
import { isRecord } from "../core/content.js";
import {
  type ExchangeContext,
  type FakeServer,
  type FakeServerOptions,
  type ProviderDefinition,
  startFakeServer,
} from "../core/server.js";
import { handleGenerate } from "../gemini/generate.js";
import { authenticateVertex, sendVertexError } from "./errors.js";
import { type FakeServiceAccount, type IssuedToken, startTokenEndpoint } from "./token-endpoint.js";

export interface FakeVertexOptions extends Omit<FakeServerOptions, "apiKey" | "requireKey"> {
  /** The service accounts whose signed assertions the token endpoint accepts. */
  readonly serviceAccounts?: readonly FakeServiceAccount[];
  /** Bearer tokens accepted as they are (the explicit-token configuration). */
  readonly staticTokens?: readonly string[];
  /** Projects the credentials may use. Default `["test-project"]`. */
  readonly projects?: readonly string[];
  /** Default: `global`, `us-east5`, `us-central1`, `europe-west1`. */
  readonly locations?: readonly string[];
  /** `expires_in` of issued tokens. Default 3599, as Google's. */
  readonly tokenLifetimeSeconds?: number;
}

export interface FakeVertex extends FakeServer {
  /** Put this in the service-account key file's `token_uri`. */
  readonly tokenUri: string;
  /** How many access tokens the token endpoint issued. */
  tokensIssued(): number;
  /** Every issued token lapses now (the next call with one is refused as expired). */
  expireTokens(): void;
}

const DEFAULT_MODELS = [
  "gemini-2.5-pro",
  "gemini-2.5-flash",
  "gemini-2.5-flash-lite",
  "claude-sonnet-4@20250514",
  "claude-sonnet-4-5@20250929",
  "claude-haiku-4-5@20251001",
  "claude-opus-4-1@20250805",
  "claude-3-5-haiku@20241022",
];
const VERTEX_ANTHROPIC_VERSION = "vertex-2023-10-16";
// `/v1/projects/{project}/locations/{location}/publishers/{publisher}/models/{model}:{method}`
// (cloud.google.com/vertex-ai/docs/reference/rest/v1/projects.locations.publishers.models).
const METHOD_PATH =
  /^\/v1\/projects\/([^/]+)\/locations\/([^/]+)\/publishers\/([^/]+)\/models\/([^/:]+):([A-Za-z]+)$/;

/** Starts a fake of Vertex AI's prediction API (Gemini and Claude publishers) and its OAuth token endpoint. */
export async function startFakeVertex(options: FakeVertexOptions = {}): Promise<FakeVertex> {
  const tokens = new Map<string, IssuedToken>();
  const host = options.host ?? "127.0.0.1";
  const tokenEndpoint = await startTokenEndpoint(
    host,
    options.serviceAccounts ?? [],
    tokens,
    options.tokenLifetimeSeconds ?? 3599,
  );
  const projects = options.projects ?? ["test-project"];
  const locations = options.locations ?? ["global", "us-east5", "us-central1", "europe-west1"];
  const models = options.knownModels ?? DEFAULT_MODELS;
  const staticTokens = options.staticTokens ?? [];
  const definition: ProviderDefinition = {
    name: "vertex",
    basePath: "",
    requestIdHeader: null,
    newRequestId: () => "",
    authenticate: (ctx) => authenticateVertex(ctx, tokens, staticTokens),
    sendError: sendVertexError,
    async handle(ctx: ExchangeContext) {
      const call = METHOD_PATH.exec(decodeURIComponent(ctx.url.pathname));
      if (ctx.req.method !== "POST" || !call) {
        return sendVertexError(ctx, {
          status: 404,
          message: `Method not found: ${ctx.req.method} ${ctx.url.pathname}`,
        });
      }
      const [, project = "", location = "", publisher = "", model = "", method = ""] = call;
      const resource = `projects/${project}/locations/${location}/publishers/${publisher}/models/${model}`;
      if (!projects.includes(project)) {
        return sendVertexError(ctx, {
          status: 403,
          message: `Permission 'aiplatform.endpoints.predict' denied on resource '//aiplatform.googleapis.com/${resource}' (or it may not exist).`,
          code: "IAM_PERMISSION_DENIED",
        });
      }
      if (!locations.includes(location)) {
        return sendVertexError(ctx, { status: 400, message: `Location ${location} is not supported.` });
      }
      if (!models.includes(model) || !publisherServes(publisher, model)) {
        return sendVertexError(ctx, {
          status: 404,
          message: `Publisher Model \`${resource}\` was not found or your project does not have access to it. Please ensure you are using a valid model version.`,
        });
      }
      if (publisher === "google" && method === "generateContent")
        return handleGenerate(ctx, model, false, false);
      if (publisher === "google" && method === "streamGenerateContent")
        return handleGenerate(ctx, model, false, true);
      if (publisher === "anthropic" && (method === "rawPredict" || method === "streamRawPredict"))
        return handleClaude(ctx, model);
      sendVertexError(ctx, { status: 400, message: `Method ${method} is not supported for ${resource}.` });
    },
  };
  const server = await startFakeServer(definition, { ...options, requireKey: true });
  return {
    ...server,
    tokenUri: tokenEndpoint.url,
    tokensIssued: () => tokenEndpoint.issued(),
    expireTokens: () => {
      for (const token of tokens.values()) token.expiresAtMs = 0;
    },
    close: async () => {
      await Promise.all([server.close(), tokenEndpoint.close()]);
    },
  };
}

function publisherServes(publisher: string, model: string): boolean {
  return publisher === "anthropic"
    ? model.startsWith("claude")
    : publisher === "google" && model.startsWith("gemini");
}

/**
 * Claude on Vertex (docs.anthropic.com/en/api/claude-on-vertex-ai): the Messages body without `model` (it is
 * in the URL) and with `anthropic_version: "vertex-2023-10-16"` in the body instead of a header. Anything
 * else is the Messages API's own validation, with its error bodies.
 */
async function handleClaude(ctx: ExchangeContext, model: string): Promise<void> {
  const body = isRecord(ctx.body) ? ctx.body : {};
  if (body.anthropic_version !== VERTEX_ANTHROPIC_VERSION) {
    return sendAnthropicError(ctx, {
      status: 400,
      message: `anthropic_version: Input should be '${VERTEX_ANTHROPIC_VERSION}'`,
    });
  }
  if ("model" in body)
    return sendAnthropicError(ctx, { status: 400, message: "model: Extra inputs are not permitted" });
  const { anthropic_version: _version, ...messages } = body;
  await handleMessages({ ...ctx, body: { ...messages, model } }, false);
}
