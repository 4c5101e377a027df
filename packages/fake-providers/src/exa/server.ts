import {
  type ExchangeContext,
  type FakeServer,
  type FakeServerOptions,
  type ProviderDefinition,
  startFakeServer,
} from "../core/server.js";
import { authenticateExa, sendExaError } from "./errors.js";
import { handleSearch, newExaRequestId } from "./search.js";

export type FakeExaOptions = FakeServerOptions;

/**
 * Starts a fake of Exa's search API (exa.ai/docs/reference/search), the search provider behind
 * OpenRouter's `web` plugin: `POST /search` only; anything else is Exa's 404. The scenarios steer it like
 * the other fakes (`x-fake-scenario: status=500`, `hang`, `delay=…`).
 */
export function startFakeExa(options: FakeExaOptions = {}): Promise<FakeServer> {
  const definition: ProviderDefinition = {
    name: "exa",
    basePath: "",
    requestIdHeader: null,
    newRequestId: newExaRequestId,
    authenticate: authenticateExa,
    sendError: sendExaError,
    async handle(ctx: ExchangeContext) {
      if (ctx.req.method !== "POST" || ctx.url.pathname !== "/search")
        return sendExaError(ctx, { status: 404, code: "NOT_FOUND", message: "Not found" });
      handleSearch(ctx);
    },
  };
  return startFakeServer(definition, options);
}
