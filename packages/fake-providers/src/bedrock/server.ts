import { randomUUID } from "node:crypto";
import type { ExchangeContext, FakeServer, FakeServerOptions, ProviderDefinition } from "../core/server.js";
import { startFakeServer } from "../core/server.js";
import { handleConverse } from "./converse.js";
import { sendBedrockError, validation } from "./errors.js";
import { handleInvoke } from "./invoke.js";
import { type FakeAwsCredential, verifySignature } from "./sigv4.js";

export type { FakeAwsCredential } from "./sigv4.js";

/** The credential the fake accepts when it is given none (tests sign with it; it opens nothing real). */
export const FAKE_AWS_CREDENTIAL: FakeAwsCredential = {
  accessKeyId: "AKIAFAKEBEDROCK00001",
  secretAccessKey: "fake/bedrock/secret/key/for/tests/only000",
};

export interface FakeBedrockOptions extends FakeServerOptions {
  /** The AWS credentials whose signatures are accepted (a gateway's and an account's BYOK side by side). */
  readonly credentials?: readonly FakeAwsCredential[];
}

const DEFAULT_MODELS = [
  "anthropic.claude-sonnet-4-20250514-v1:0",
  "us.anthropic.claude-sonnet-4-20250514-v1:0",
  "anthropic.claude-3-5-haiku-20241022-v1:0",
  "meta.llama3-3-70b-instruct-v1:0",
  "us.meta.llama3-3-70b-instruct-v1:0",
  "mistral.mistral-large-2407-v1:0",
  "amazon.nova-pro-v1:0",
  // The catalogue's open-weight Converse endpoints (packages/catalog/src/models/bedrock-converse.ts).
  "us.meta.llama4-maverick-17b-instruct-v1:0",
  "mistral.mistral-large-3-675b-instruct",
  "openai.gpt-oss-120b-1:0",
  "qwen.qwen3-32b-v1:0",
  "qwen.qwen3-235b-a22b-2507-v1:0",
];

// POST /model/{modelId}/{operation} (Bedrock Runtime API reference); the id arrives percent-encoded.
const ROUTE = /^\/model\/([^/]+)\/(invoke|invoke-with-response-stream|converse|converse-stream)$/;

/**
 * Starts a fake of Amazon Bedrock Runtime on loopback: every request's SigV4 signature is recomputed
 * with the configured secret and refused as the service refuses it; InvokeModel for Claude and Converse
 * for the others, streamed in the real binary event-stream framing. The shared fault switches
 * (`x-fake-scenario`, `/__fake/scenario`) answer 429 ThrottlingException, 503 ServiceUnavailableException….
 */
export function startFakeBedrock(options: FakeBedrockOptions = {}): Promise<FakeServer> {
  const credentials = options.credentials ?? [FAKE_AWS_CREDENTIAL];
  const models = options.knownModels ?? DEFAULT_MODELS;
  const definition: ProviderDefinition = {
    name: "bedrock",
    basePath: "",
    requestIdHeader: "x-amzn-RequestId",
    newRequestId: () => randomUUID(),
    authenticate: (ctx) => verifySignature(ctx, credentials),
    sendError: sendBedrockError,
    async handle(ctx: ExchangeContext) {
      const route = ctx.req.method === "POST" ? ROUTE.exec(ctx.url.pathname) : null;
      if (!route)
        return sendBedrockError(ctx, {
          status: 404,
          code: "UnknownOperationException",
          message: "Not Found",
        });
      const modelId = decodeURIComponent(route[1] ?? "");
      const operation = route[2] ?? "";
      // InvokeModel's own wording for an id it does not serve (a wrong or unavailable model id).
      if (!models.includes(modelId))
        return sendBedrockError(ctx, validation("The provided model identifier is invalid."));
      const anthropic = /^([a-z]{2,6}\.)?anthropic\./.test(modelId);
      if (operation.startsWith("invoke")) {
        if (!anthropic)
          return sendBedrockError(
            ctx,
            validation("This fake serves InvokeModel for Anthropic models only; use Converse."),
          );
        return handleInvoke(ctx, modelId, operation === "invoke-with-response-stream");
      }
      return handleConverse(ctx, operation === "converse-stream");
    },
  };
  return startFakeServer(definition, { ...options, requireKey: false });
}
