import type { Principal } from "@gw/auth";
import { newGenerationId } from "@gw/events";
import type { Response } from "express";
import { audioTokenBound, estimatePromptTokens } from "../admission/worst-case.js";
import { type Attribution, attributionOf } from "../canonical/attribution.js";
import { type ChatRequest, requestedMaxTokens } from "../canonical/chat-request.js";
import { requestFeatures } from "../canonical/plugins.js";
import { promptText } from "../canonical/prompt-text.js";
import { clientAbortSignal } from "../middleware/client-signal.js";
import type { Surface } from "../translate/surface.js";
import type { AdmittedChat } from "./admitted.js";
import type { EdgeContext } from "./edge-context.js";
import { withFeatures } from "./features.js";
import { plannedWithPdfText } from "./pdf-fallback.js";
import { respondJson } from "./respond-json.js";
import { respondStream } from "./respond-stream.js";
import { endStage, linkSignal, timesOf } from "./server-timing.js";
import { searchedOnceAdmitted } from "./web-admitted.js";
import { nativeSearchHoldPico, webServing } from "./web-native.js";
import { webPromptAllowanceTokens, webSearchHoldPico } from "./web-served.js";

/** What every inference request has before its body is read: an id, a start time, a disconnect signal. */
export interface RequestStart {
  generationId: string;
  startedAt: number;
  signal: AbortSignal;
  /** The app attribution headers, validated; recorded on the generation. */
  attribution: Attribution | undefined;
  /**
   * Sends the id as `X-Generation-Id`. Called once the request is admitted, because from then on it
   * will have a generation record (served or failed); a request refused before (401, 402, 404, 429,
   * 503…) carries no id, so no client looks up a generation that will never exist.
   */
  announce(): void;
}

export function startRequest(context: Pick<EdgeContext, "now">, response: Response): RequestStart {
  timesOf(response)?.end("receive");
  const startedAt = context.now();
  const generationId = newGenerationId(startedAt);
  const announce = () => {
    if (!response.headersSent) response.setHeader("X-Generation-Id", generationId);
  };
  // A batch item runs on a response with no request behind it: no attribution then.
  const attribution = attributionOf(response.req?.headers);
  const signal = clientAbortSignal(response);
  linkSignal(response, signal);
  return { generationId, startedAt, signal, attribution, announce };
}

export interface Inference {
  start: RequestStart;
  principal: Principal;
  /** The request in canonical (OpenAI chat) form, whatever surface it arrived on. */
  request: ChatRequest;
  surface: Surface;
}

/**
 * The hot path shared by every chat-like surface (ARCHITECTURE "The hot path"): plan from the
 * in-memory catalogue (the key's allow-lists apply) → admit → providers in plan order → the surface
 * renders the answer → the generation is finished (hold settled, usage published).
 */
export async function serveInference(
  context: EdgeContext,
  inference: Inference,
  response: Response,
): Promise<void> {
  const { principal, start } = inference;
  // Plugins and transforms are served or refused here, before anything is planned or held.
  const features = requestFeatures(inference.request, {
    webSearch: context.settings.webSearch !== undefined,
  });
  const rewritten = await withFeatures(inference.request, features);
  const { base, planned, fileParser } = await plannedWithPdfText(context, principal, rewritten, features);
  endStage(start.signal, "plan");
  const web = webServing(features, planned, context.settings.webSearch !== undefined);
  const exaWeb = web.exa ? features.web : undefined;
  const basePrompt = promptText(base);
  const hold = await context.admission.admitPlanned({
    generationId: start.generationId,
    principal,
    requestedModel: base.model,
    attempts: web.route.attempts,
    worstCase: {
      promptTokens: estimatePromptTokens(basePrompt) + webPromptAllowanceTokens(exaWeb),
      maxTokens: requestedMaxTokens(base),
      choices: base.n ?? 1,
      imageCount: basePrompt.imageCount,
      audioTokens: audioTokenBound(basePrompt.audioBytes ?? 0),
      files: basePrompt.fileCount ?? 0,
      searchPico: webSearchHoldPico(exaWeb) + nativeSearchHoldPico(web),
    },
  });
  endStage(start.signal, "admit");
  const { request, route, results } = await searchedOnceAdmitted(context, inference, {
    base,
    features: { ...features, web: exaWeb },
    planned: web.route,
    hold,
  });
  start.announce();
  const prompt = request === base ? basePrompt : promptText(request);
  const chat: AdmittedChat = {
    generationId: start.generationId,
    principal,
    request,
    prompt,
    route,
    hold,
    startedAt: start.startedAt,
    signal: start.signal,
    surface: inference.surface,
    attribution: start.attribution,
    ...(results ? { webResults: results } : {}),
    ...(fileParser ? { fileParser } : {}),
    ...(web.native ? { nativeWebSearch: web.native } : {}),
  };
  if (request.stream === true) await respondStream(response, chat, context);
  else await respondJson(response, chat, context);
}
