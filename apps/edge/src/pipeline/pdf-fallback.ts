import type { Principal } from "@gw/auth";
import { GatewayError } from "@gw/errors";
import type { ChatRequest } from "../canonical/chat-request.js";
import type { RequestFeatures } from "../canonical/plugins.js";
import type { Route } from "../planning/planner.js";
import type { EdgeContext } from "./edge-context.js";
import { withFeatures } from "./features.js";

/** The request as planned, and whether the file-parser turned its PDFs into text. */
export interface PdfPlanned {
  base: ChatRequest;
  planned: Route;
  /** The `file-parser` ran: asked for as a plugin, or because no model planned reads PDFs. */
  fileParser: boolean;
}

/**
 * Plans the request as the features rewrote it. A PDF sent to models the catalogue lists as reading no
 * documents is parsed to text and the request planned again, as OpenRouter does for any model (its
 * "PDF Inputs": models without native file support get the parsed text): the refusal the planner gives
 * (planning/modalities.ts) is answered here, before admission, so the hold counts the text that is sent.
 * A caller that asked for the `native` engine keeps the refusal; a file that is not a PDF data URL too.
 */
export async function plannedWithPdfText(
  context: Pick<EdgeContext, "planner">,
  principal: Principal,
  base: ChatRequest,
  features: RequestFeatures,
): Promise<PdfPlanned> {
  const route = (request: ChatRequest) =>
    context.planner.route({ principal, request, kind: "chat", middleOut: features.middleOut });
  try {
    return { base, planned: await route(base), fileParser: features.pdf === "text" };
  } catch (error) {
    if (!readsNoFiles(error) || features.pdf !== undefined) throw error;
    const parsed = await withFeatures(base, { ...features, pdf: "text" });
    if (parsed === base) throw error;
    return { base: parsed, planned: await route(parsed), fileParser: true };
  }
}

function readsNoFiles(error: unknown): boolean {
  return error instanceof GatewayError && error.metadata?.modality === "file";
}
