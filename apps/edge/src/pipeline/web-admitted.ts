import type { Principal } from "@gw/auth";
import type { Hold } from "../admission/admit.js";
import type { ChatRequest } from "../canonical/chat-request.js";
import type { RequestFeatures } from "../canonical/plugins.js";
import type { Route } from "../planning/planner.js";
import type { EdgeContext } from "./edge-context.js";
import type { WebResult } from "./web-search.js";
import { webSearched } from "./web-served.js";

/** The request, its plan and the hold, as they stand once admission granted them. */
export interface RoutePlanned {
  base: ChatRequest;
  features: RequestFeatures;
  planned: Route;
  hold: Hold;
}

/** What the model is sent: the request with the search results in its prompt, planned again for them. */
export interface Searched {
  request: ChatRequest;
  route: Route;
  results: WebResult[] | undefined;
}

/**
 * The web plugin's search, run only once the request is admitted: a caller who cannot pay (402), is
 * over a limit (429) or plans to nothing never makes the gateway pay the search provider. The results
 * lengthen the prompt, so the request is planned again (an endpoint they no longer fit leaves the plan;
 * the hold was sized on every planned endpoint with the results at their most). A failed search or a
 * plan with nothing left releases the hold: no model was called, so nothing is recorded or billed.
 */
export async function searchedOnceAdmitted(
  context: EdgeContext,
  caller: { principal: Principal; start: { signal: AbortSignal } },
  planned: RoutePlanned,
): Promise<Searched> {
  if (planned.features.web === undefined) {
    return { request: planned.base, route: planned.planned, results: undefined };
  }
  try {
    const web = await webSearched(context, planned.base, planned.features, caller.start);
    const route = await context.planner.route({
      principal: caller.principal,
      request: web.request,
      kind: "chat",
      middleOut: planned.features.middleOut,
    });
    return { request: web.request, route, results: web.results };
  } catch (error) {
    context.admission.finish(planned.hold, 0n, false);
    throw error;
  }
}
