import type { Endpoint } from "@gw/proto/catalog/v1/catalog";
import { INPUT_MODALITIES, type InputModality } from "./types.js";

type EndpointFacts = Pick<Endpoint, "inputModalities" | "pricing">;

/**
 * What one endpoint's model reads, as the catalogue lists it. A snapshot from a keys app older than the
 * field lists none: then text, and images where the endpoint prices input images (the only modality
 * data the catalogue had before).
 */
export function endpointInputModalities(endpoint: EndpointFacts): readonly InputModality[] {
  const listed = endpoint.inputModalities ?? [];
  if (listed.length > 0) return INPUT_MODALITIES.filter((m) => m === "text" || listed.includes(m));
  return (endpoint.pricing?.imagePico ?? 0n) > 0n ? ["text", "image"] : ["text"];
}

/** What a model reads over the given endpoints: any of them, in OpenRouter's order (text, image, file, audio). */
export function modelInputModalities(endpoints: readonly EndpointFacts[]): readonly InputModality[] {
  const taken = new Set(endpoints.flatMap((endpoint) => endpointInputModalities(endpoint)));
  return INPUT_MODALITIES.filter((m) => m === "text" || taken.has(m));
}

/** A list read from an import or an operator: known names only, text always, in the canonical order. */
export function inputModalitiesOf(names: readonly string[]): InputModality[] {
  return INPUT_MODALITIES.filter((m) => m === "text" || names.includes(m));
}
