import {
  type ExchangeContext,
  type FakeServer,
  type FakeServerOptions,
  type ProviderDefinition,
  startFakeServer,
} from "../core/server.js";
import { handleChatCompletion, type OpenAiFlavour } from "../openai/chat.js";
import { CHAT_FIELDS } from "../openai/fields.js";
import { authenticateAzure, sendAzureError, sendContentFilterRefusal } from "./errors.js";

export interface FakeAzureOptions extends FakeServerOptions {
  /** Deployment name → the model it serves. Default: one deployment per GPT model, named after it. */
  readonly deployments?: Readonly<Record<string, string>>;
  /** Dated api-versions the resource accepts. Default: the GA and recent preview versions. */
  readonly apiVersions?: readonly string[];
}

/** A prompt containing this is refused by the fake's content filter (400 content_filter). */
export const AZURE_FILTERED_MARKER = "[fake-azure: filtered]";

const DEFAULT_DEPLOYMENTS: Readonly<Record<string, string>> = Object.fromEntries(
  ["gpt-4o", "gpt-4o-mini", "gpt-4.1", "gpt-4.1-mini", "gpt-4.1-nano", "o3", "o3-mini", "o4-mini", "o1"].map(
    (model) => [model, model],
  ),
);
const DEFAULT_API_VERSIONS = [
  "2024-06-01",
  "2024-10-21",
  "2025-01-01-preview",
  "2025-03-01-preview",
  "2025-04-01-preview",
];
const DEPLOYMENT_PATH = /^\/openai\/deployments\/([^/]+)\/chat\/completions$/;
const V1_PATH = "/openai/v1/chat/completions";

/**
 * Starts a fake Azure OpenAI resource (learn.microsoft.com/azure/ai-foundry/openai/reference): chat
 * completions per deployment with an `api-version` (missing: 404 "Resource not found"; unknown: 400 "API
 * version not supported"), or the v1 API with the deployment in `model`; an unknown deployment is 404
 * DeploymentNotFound. The model's answer is the fake OpenAI's.
 */
export function startFakeAzure(options: FakeAzureOptions = {}): Promise<FakeServer> {
  const deployments = options.deployments ?? DEFAULT_DEPLOYMENTS;
  const apiVersions = options.apiVersions ?? DEFAULT_API_VERSIONS;
  const flavour: OpenAiFlavour = { demo: false, systemFingerprint: "fp_fake_azure", chatFields: CHAT_FIELDS };
  const definition: ProviderDefinition = {
    name: "azure",
    basePath: "",
    requestIdHeader: "apim-request-id",
    newRequestId: () => crypto.randomUUID(),
    authenticate: authenticateAzure,
    sendError: sendAzureError,
    async handle(ctx: ExchangeContext) {
      const path = ctx.url.pathname;
      const dated = DEPLOYMENT_PATH.exec(path);
      if (ctx.req.method !== "POST" || (!dated && path !== V1_PATH))
        return sendAzureError(ctx, { status: 404, message: "Resource not found" });
      const version = ctx.url.searchParams.get("api-version");
      if (dated) {
        if (version === null) return sendAzureError(ctx, { status: 404, message: "Resource not found" });
        if (!apiVersions.includes(version))
          return sendAzureError(ctx, {
            status: 400,
            code: "BadRequest",
            message: "API version not supported",
          });
      }
      const body = (ctx.body ?? {}) as Record<string, unknown>;
      const deployment = dated ? decodeURIComponent(dated[1] ?? "") : String(body.model ?? "");
      const model = deployments[deployment];
      if (model === undefined) {
        return sendAzureError(ctx, {
          status: 404,
          code: "DeploymentNotFound",
          message:
            "The API deployment for this resource does not exist. If you created the deployment within the last 5 minutes, please wait a moment and try again.",
        });
      }
      if (JSON.stringify(body.messages ?? []).includes(AZURE_FILTERED_MARKER))
        return sendContentFilterRefusal(ctx);
      await handleChatCompletion({ ...ctx, body: { ...body, model } }, flavour);
    },
  };
  return startFakeServer(definition, options);
}
