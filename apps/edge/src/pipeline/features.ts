import { GatewayError } from "@gw/errors";
import type { ChatRequest } from "../canonical/chat-request.js";
import { type RequestFeatures, withoutOnline } from "../canonical/plugins.js";
import { nativeRequestOf } from "../providers/native.js";
import { withPdfText } from "./file-parser.js";

/**
 * The request as the features rewrite it before planning (the file-parser's PDF text), so the prompt
 * estimate, the hold and the bill count what is sent. A rewritten request goes to every provider
 * translated from the canonical form, not as the caller's native body (that still holds the PDF, or the
 * uncompressed prompt): members of that body with no translation would be lost, so they are a 400.
 */
export async function withFeatures(request: ChatRequest, features: RequestFeatures): Promise<ChatRequest> {
  const rewrites = features.pdf === "text" || features.middleOut || features.web !== undefined;
  const untranslated = nativeRequestOf(request)?.untranslated ?? [];
  if (rewrites && untranslated.length > 0) {
    const fields = untranslated.join(", ");
    throw new GatewayError(
      "invalid_request",
      `${fields}: cannot be sent with a plugin or transform that rewrites the request (the gateway has no translation for it)`,
      { code: "untranslatable_request", metadata: { field: fields } },
    );
  }
  const parsed = features.pdf === "text" ? await withPdfText(request) : request;
  return features.web === undefined ? parsed : offline(parsed);
}

/** `model:online` planned as `model` (the variant is the web plugin, served here, not a catalogue entry). */
function offline(request: ChatRequest): ChatRequest {
  const models = request.models?.map(withoutOnline);
  return { ...request, model: withoutOnline(request.model), ...(models ? { models } : {}) };
}
