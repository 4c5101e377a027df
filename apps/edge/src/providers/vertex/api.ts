// Vertex AI's REST surface (cloud.google.com/vertex-ai/docs/reference/rest/v1/projects.locations.publishers.models):
// `POST https://{location}-aiplatform.googleapis.com/v1/projects/{project}/locations/{location}/publishers/
// {publisher}/models/{model}:{method}`, the `global` location on `aiplatform.googleapis.com`. Gemini is
// publisher `google` (generateContent, streamGenerateContent?alt=sse); Claude is publisher `anthropic`
// (rawPredict, streamRawPredict) with the model in the URL and `anthropic_version: "vertex-2023-10-16"` in
// the body (docs.anthropic.com/en/api/claude-on-vertex-ai).

export const VERTEX_ANTHROPIC_VERSION = "vertex-2023-10-16";

export type VertexPublisher = "google" | "anthropic";

/** Where one Vertex model is served: the endpoint's own project and location or the configured defaults. */
export interface VertexTarget {
  readonly project: string;
  readonly location: string;
  readonly publisher: VertexPublisher;
  readonly model: string;
}

export interface VertexDefaults {
  readonly project: string | undefined;
  readonly location: string;
}

// Project ids are 6-30 of [a-z0-9-]; locations `us-east5`, `europe-west1`, `global`. Checked so an
// endpoint's name can never add a path segment.
const PROJECT = /^[a-z][a-z0-9-]{4,28}[a-z0-9]$/;
const LOCATION = /^[a-z0-9-]{2,40}$/;
const MODEL = /^[A-Za-z0-9._@-]{1,128}$/;
const RESOURCE = /^projects\/([^/]+)\/locations\/([^/]+)\/publishers\/([^/]+)\/models\/([^/]+)$/;

export function isVertexProject(value: string): boolean {
  return PROJECT.test(value);
}

export function isVertexLocation(value: string): boolean {
  return LOCATION.test(value);
}

/**
 * An endpoint's upstream model → its target. Two forms: a model name (`claude-sonnet-4@20250514`,
 * `gemini-2.5-pro`: the publisher follows the name, project and location are the defaults) or a full
 * resource (`projects/p/locations/us-east5/publishers/anthropic/models/claude-sonnet-4@20250514`, which an
 * operator sets as the endpoint's `upstream_model` to place it in a project and region of its own).
 */
export function vertexTarget(
  upstreamModel: string,
  defaults: VertexDefaults,
): VertexTarget | { problem: string } {
  const resource = RESOURCE.exec(upstreamModel);
  if (resource) {
    const [, project = "", location = "", publisher = "", model = ""] = resource;
    if (!isVertexProject(project)) return { problem: `"${project}" is not a Google Cloud project id` };
    if (!isVertexLocation(location)) return { problem: `"${location}" is not a Vertex AI location` };
    if (publisher !== "google" && publisher !== "anthropic")
      return { problem: `publisher "${publisher}" is not served (google, anthropic)` };
    if (!MODEL.test(model)) return { problem: `"${model}" is not a Vertex model name` };
    return { project, location, publisher, model };
  }
  if (!MODEL.test(upstreamModel)) return { problem: `"${upstreamModel}" is not a Vertex model name` };
  if (defaults.project === undefined)
    return { problem: "no project: set VERTEX_PROJECT or use a key file with a project_id" };
  return {
    project: defaults.project,
    location: defaults.location,
    publisher: upstreamModel.startsWith("claude") ? "anthropic" : "google",
    model: upstreamModel,
  };
}

/** Google's regional host for a location, or the global one. */
export function vertexOrigin(location: string): string {
  return location === "global"
    ? "https://aiplatform.googleapis.com"
    : `https://${location}-aiplatform.googleapis.com`;
}

/** The method's path on the host. */
export function vertexPath(target: VertexTarget, stream: boolean): string {
  const method =
    target.publisher === "anthropic"
      ? stream
        ? "streamRawPredict"
        : "rawPredict"
      : stream
        ? "streamGenerateContent?alt=sse"
        : "generateContent";
  return `/v1/projects/${target.project}/locations/${target.location}/publishers/${target.publisher}/models/${target.model}:${method}`;
}
