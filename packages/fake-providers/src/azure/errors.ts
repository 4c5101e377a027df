import { sendJson } from "../core/http.js";
import { type ExchangeContext, keyAccepted, type ProviderError } from "../core/server.js";
import { sendOpenAiError } from "../openai/errors.js";

// Azure OpenAI's own refusals come before the request reaches the model and are not OpenAI's shape:
// `{error: {code, message}}` with codes "401", "404", "DeploymentNotFound", "BadRequest", "429"
// (learn.microsoft.com/azure/ai-foundry/openai/reference, and the bodies Azure sends, quoted in
// learn.microsoft.com/answers/questions/1299621 for DeploymentNotFound). The model's own validation
// errors are OpenAI's shape (the fake OpenAI's).

export function sendAzureError(ctx: ExchangeContext, error: ProviderError): void {
  if (error.status === 400 && error.code !== "BadRequest") {
    sendOpenAiError(ctx, error);
    return;
  }
  const headers: Record<string, string> = {};
  if (error.retryAfter !== undefined) headers["retry-after"] = String(error.retryAfter);
  sendJson(
    ctx.res,
    error.status,
    {
      error: {
        code: error.code ?? String(error.status),
        message: error.message ?? defaultMessage(error.status),
      },
    },
    headers,
  );
}

function defaultMessage(status: number): string {
  if (status === 429)
    return "Requests to the ChatCompletions_Create Operation under Azure OpenAI API version 2024-10-21 have exceeded token rate limit of your current OpenAI S0 pricing tier. Please retry after 1 second.";
  if (status === 503)
    return "The service is temporarily unable to process your request. Please try again later.";
  return "Internal server error";
}

/**
 * The resource key in `api-key`, or an Entra ID bearer token: Azure answers 401 with code "401" for a
 * missing or wrong one.
 */
export function authenticateAzure(ctx: ExchangeContext): ProviderError | null {
  const header = ctx.req.headers["api-key"];
  const bearer = /^Bearer (\S+)$/.exec(ctx.req.headers.authorization ?? "")?.[1];
  const key = typeof header === "string" && header !== "" ? header : bearer;
  if (key === undefined) {
    return {
      status: 401,
      message:
        "Access denied due to missing subscription key. Make sure to include subscription key when making requests to an API.",
    };
  }
  if (!keyAccepted(ctx.options, key)) {
    return {
      status: 401,
      message:
        "Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.",
    };
  }
  return null;
}

/**
 * The prompt filter's refusal (learn.microsoft.com/azure/ai-foundry/openai/concepts/content-filter,
 * "Scenario details"): HTTP 400, code `content_filter`, and the per-category verdicts in
 * `innererror.content_filter_result`.
 */
export function sendContentFilterRefusal(ctx: ExchangeContext): void {
  sendJson(ctx.res, 400, {
    error: {
      message:
        "The response was filtered due to the prompt triggering Azure OpenAI's content management policy. Please modify your prompt and retry. To learn more about our content filtering policies please read our documentation: https://go.microsoft.com/fwlink/?linkid=2198766",
      type: null,
      param: "prompt",
      code: "content_filter",
      status: 400,
      innererror: {
        code: "ResponsibleAIPolicyViolation",
        content_filter_result: {
          hate: { filtered: false, severity: "safe" },
          jailbreak: { filtered: false, detected: false },
          self_harm: { filtered: false, severity: "safe" },
          sexual: { filtered: false, severity: "safe" },
          violence: { filtered: true, severity: "medium" },
        },
      },
    },
  });
}
