import type { Principal } from "@gw/auth";
import type { Hold } from "../admission/admit.js";
import { type Attribution, externalUserOf } from "../canonical/attribution.js";
import type { ChatRequest } from "../canonical/chat-request.js";
import type { NativeWebSearch } from "../canonical/plugins.js";
import type { PromptText } from "../canonical/prompt-text.js";
import type { Route } from "../planning/planner.js";
import type { Surface } from "../translate/surface.js";
import type { GenerationSubject } from "./finish-generation.js";
import { nativeSearchCharge } from "./web-native.js";
import type { WebResult } from "./web-search.js";
import { webSearchPico } from "./web-served.js";

/** One admitted chat request on its way through the providers. */
export interface AdmittedChat {
  generationId: string;
  principal: Principal;
  request: ChatRequest;
  prompt: PromptText;
  route: Route;
  hold: Hold;
  startedAt: number;
  /** Aborted when the client disconnects. */
  signal: AbortSignal;
  /** The API shape the client spoke, which the answer is rendered in. */
  surface: Surface;
  attribution: Attribution | undefined;
  /** The web plugin's results (already in the prompt): cited in the answer, billed on the generation. */
  webResults?: WebResult[] | undefined;
  /** The file-parser turned the request's PDFs into text (asked for, or no model planned reads PDFs). */
  fileParser?: boolean | undefined;
  /** The web plugin on the provider's own search (web-native.ts): sent with every attempt, billed per search. */
  nativeWebSearch?: NativeWebSearch | undefined;
}

export function subjectOf(chat: AdmittedChat): GenerationSubject {
  return {
    generationId: chat.generationId,
    principal: chat.principal,
    startedAt: chat.startedAt,
    apiType: chat.surface.apiType,
    requestedModel: chat.request.model,
    hold: chat.hold,
    attribution: chat.attribution,
    externalUser: externalUserOf(chat.request.user),
    webSearchPico: webSearchPico(chat.webResults),
    ...(chat.webResults ? { webSearchResults: chat.webResults.length } : {}),
    ...nativeSearchOf(chat),
    ...pluginsOf(chat),
  };
}

/** The provider's own searches, priced on the serving attempt (web-native.ts); none without native search. */
function nativeSearchOf(chat: AdmittedChat): Pick<GenerationSubject, "nativeSearch"> {
  const native = chat.nativeWebSearch;
  if (native === undefined) return {};
  return { nativeSearch: (attempt, measured) => nativeSearchCharge(chat.route, attempt, measured, native) };
}

/** The plugins that ran before any attempt, for the generation record; none = no field. */
function pluginsOf(chat: AdmittedChat): { plugins?: string[] } {
  const web = chat.webResults !== undefined || chat.nativeWebSearch !== undefined;
  const plugins = [...(chat.fileParser ? ["file-parser"] : []), ...(web ? ["web"] : [])];
  return plugins.length > 0 ? { plugins } : {};
}
