import { requireKeyType } from "@gw/auth";
import { anthropicErrorBody, toGatewayError } from "@gw/errors";
import type { ClaimedItem } from "@gw/proto/generations/v1/batches";
import { splitPluginFields } from "../canonical/plugins.js";
import type { EdgeContext } from "../pipeline/edge-context.js";
import { serveInference, startRequest } from "../pipeline/serve.js";
import { withNativeModels } from "../planning/native-model.js";
import { chatRequestFromMessages, parseMessagesRequest } from "../translate/anthropic/messages-request.js";
import { MESSAGES_SURFACE } from "../translate/anthropic/messages-response.js";
import { translating } from "../translate/untranslatable.js";
import { CapturedResponse } from "./captured-response.js";

export interface ItemOutcome {
  outcome: "succeeded" | "errored";
  result: Record<string, unknown>;
}

/**
 * Serves one batch request through the normal request path, as its key (re-resolved now, so a key
 * disabled since submission is refused): the result line is the Message or the error, in
 * Anthropic's batch result shape.
 */
export async function executeBatchItem(context: EdgeContext, item: ClaimedItem): Promise<ItemOutcome> {
  const captured = new CapturedResponse();
  try {
    const principal = requireKeyType(await context.principals.resolveHash(item.keyHash), "regular");
    // Plugins and transforms as on /v1/messages (checked at submission too, routes/batches.ts).
    const split = splitPluginFields(JSON.parse(item.paramsJson));
    const body = parseMessagesRequest(split.body);
    const chat = {
      ...withNativeModels(
        context.catalog.require(),
        translating(() => chatRequestFromMessages(body)),
        ["anthropic"],
      ),
      ...split.fields,
    };
    chat.stream = false;
    const response = captured.asResponse();
    const start = startRequest(context, response);
    await serveInference(context, { start, principal, request: chat, surface: MESSAGES_SURFACE }, response);
    if (captured.statusCode === 200 && captured.body !== undefined)
      return { outcome: "succeeded", result: { type: "succeeded", message: captured.body } };
    return errored(new Error(`the request ended with HTTP ${captured.statusCode}`));
  } catch (error) {
    const id = captured.getHeader("x-generation-id");
    return errored(error, typeof id === "string" ? id : undefined);
  }
}

function errored(error: unknown, requestId?: string): ItemOutcome {
  return {
    outcome: "errored",
    result: { type: "errored", error: anthropicErrorBody(toGatewayError(error), requestId) },
  };
}
