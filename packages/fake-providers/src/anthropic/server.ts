import { sendJson } from "../core/http.js";
import { randomId } from "../core/ids.js";
import {
  type ExchangeContext,
  type FakeServer,
  type FakeServerOptions,
  type ProviderDefinition,
  startFakeServer,
} from "../core/server.js";
import { authenticateAnthropic, sendAnthropicError } from "./errors.js";
import { handleCountTokens, handleMessages } from "./messages.js";

export interface FakeAnthropicOptions extends FakeServerOptions {
  /** Replies say they come from Model Gateway's built-in demo (used when the demo is reached natively). */
  readonly demo?: boolean;
}

const DEFAULT_MODELS = [
  { id: "claude-sonnet-4-20250514", display_name: "Claude Sonnet 4", created_at: "2025-05-22T00:00:00Z" },
  { id: "claude-3-5-haiku-20241022", display_name: "Claude Haiku 3.5", created_at: "2024-10-22T00:00:00Z" },
];

/** Starts a fake of the Anthropic Messages API on loopback. */
export function startFakeAnthropic(options: FakeAnthropicOptions = {}): Promise<FakeServer> {
  const demo = options.demo ?? false;
  const models = options.knownModels
    ? options.knownModels.map((id) => ({ id, display_name: id, created_at: "2025-01-01T00:00:00Z" }))
    : DEFAULT_MODELS;
  const definition: ProviderDefinition = {
    name: "anthropic",
    basePath: "",
    requestIdHeader: "request-id",
    newRequestId: () => randomId("req_011", 21),
    authenticate: authenticateAnthropic,
    sendError: sendAnthropicError,
    async handle(ctx: ExchangeContext) {
      // The SDK's beta resources add `?beta=true`; the path is what routes.
      const route = `${ctx.req.method} ${ctx.url.pathname}`;
      if (route === "POST /v1/messages") return handleMessages(ctx, demo);
      if (route === "POST /v1/messages/count_tokens") return handleCountTokens(ctx);
      if (route === "GET /v1/models") {
        return sendJson(ctx.res, 200, {
          data: models.map((m) => ({ type: "model", ...m })),
          has_more: false,
          first_id: models[0]?.id ?? null,
          last_id: models.at(-1)?.id ?? null,
        });
      }
      sendAnthropicError(ctx, { status: 404, message: "Not found" });
    },
  };
  return startFakeServer(definition, options);
}
