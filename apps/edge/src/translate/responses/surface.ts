import type { Surface } from "../surface.js";
import type { ResponsesEcho } from "./request.js";
import { renderResponse } from "./response.js";
import { ResponsesStreamRenderer } from "./stream.js";

/** The Responses surface of one request: it echoes that request's parameters in every response object. */
export function responsesSurface(echo: ResponsesEcho): Surface {
  return {
    apiType: "responses",
    renderJson: renderResponse(echo),
    stream: (identity) => new ResponsesStreamRenderer(identity, echo),
  };
}
