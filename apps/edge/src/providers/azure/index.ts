import { thoughtsExcluded } from "../../translate/openai/reasoning.js";
import { exchangeChat, type WireDialect } from "../exchange.js";
import { withoutThoughts } from "../excluded-thoughts.js";
import { networkFailure } from "../failure.js";
import { UpstreamHttp } from "../http.js";
import { chatRequestBody, parseCompletion } from "../openai-compatible/chat.js";
import { openAiStreamEvents } from "../openai-compatible/stream.js";
import type { ChatResult, ProviderFactory } from "../types.js";
import { AZURE_DEFAULT_API_VERSION, AZURE_NO_BASE, azureChatPath, azureDeployment } from "./api.js";
import { azureAuthHeaders, parseAzureCredential } from "./credential.js";

/**
 * Azure OpenAI: OpenAI's chat dialect at a deployment's path, authenticated by `api-key` or an Entra ID
 * bearer. Content filtering is Azure's own and reaches the caller: a filtered answer keeps its
 * `finish_reason: "content_filter"` and `content_filter_results` (the wire schema keeps unknown members),
 * and a filtered prompt is Azure's 400 `content_filter`, final (it would be filtered anywhere the same
 * policy applies) and relayed with its `innererror.content_filter_result` (error-body.ts).
 */
export const azureProvider: ProviderFactory = (settings, timeouts) => {
  const options = settings.azure ?? { apiVersion: AZURE_DEFAULT_API_VERSION, deployments: {} };
  const credential = parseAzureCredential(settings.apiKey ?? "");
  const problem =
    "problem" in credential
      ? `the Azure OpenAI credential ${credential.problem}`
      : credential.endpoint === undefined && settings.baseUrl === AZURE_NO_BASE
        ? "an Azure OpenAI key without an endpoint needs AZURE_OPENAI_BASE_URL"
        : undefined;
  const usable = !("problem" in credential);
  const http = new UpstreamHttp((usable && credential.endpoint) || settings.baseUrl, timeouts);
  const headers = {
    "content-type": "application/json",
    accept: "application/json",
    ...(usable ? azureAuthHeaders(credential) : {}),
  };
  const dialect: WireDialect = {
    request: (call) => {
      const deployment = azureDeployment(call.upstreamModel, options);
      return {
        path: azureChatPath(deployment, options.apiVersion),
        headers,
        // The v1 API reads the deployment from `model`; the dated paths ignore it.
        body: chatRequestBody(call.request, deployment, call.stream, true, false, {
          supportedParameters: call.supportedParameters,
        }),
      };
    },
    parse: parseCompletion,
    events: openAiStreamEvents,
  };
  return {
    id: settings.id,
    apiFormat: "openai",
    isDemo: false,
    chat: {
      complete: async (call): Promise<ChatResult> => {
        if (problem !== undefined) {
          const failure = networkFailure("protocol", problem);
          return { ok: false, failure: { ...failure, gatewayFault: true } };
        }
        const result = await exchangeChat(http, dialect, call);
        return thoughtsExcluded(call.request) ? withoutThoughts(result) : result;
      },
    },
    unsupported: undefined,
    close: () => http.close(),
  };
};
