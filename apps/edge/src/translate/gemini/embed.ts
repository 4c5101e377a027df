import { parseOrThrow } from "@gw/http";
import { z } from "zod";
import type { EmbedRequest } from "../../canonical/embed-request.js";
import { untranslatable } from "../untranslatable.js";

const embedContent = z.looseObject({
  content: z.looseObject({ parts: z.array(z.looseObject({})).min(1) }),
  taskType: z.string().optional(),
  title: z.string().optional(),
  outputDimensionality: z.number().int().positive().optional(),
  model: z.string().optional(),
});

export const embedContentSchema = embedContent;
export const batchEmbedContentsSchema = z.looseObject({ requests: z.array(embedContent).min(1).max(2048) });

type EmbedContent = z.infer<typeof embedContent>;

function text(request: EmbedContent, path: string): string {
  return request.content.parts
    .map((part, index) =>
      typeof part.text === "string"
        ? part.text
        : untranslatable(`${path}.content.parts[${index}]`, "only text parts embed"),
    )
    .join("");
}

/** embedContent and batchEmbedContents in canonical form (one model, the path's, for all inputs). */
export function embedRequestFromGemini(body: unknown, model: string, batch: boolean): EmbedRequest {
  const requests = batch
    ? parseOrThrow(batchEmbedContentsSchema, body).requests
    : [parseOrThrow(embedContentSchema, body)];
  const first = requests[0];
  return {
    model,
    input: requests.map((request, index) => text(request, batch ? `requests[${index}]` : "body")),
    dimensions: first?.outputDimensionality,
    taskType: first?.taskType,
    title: first?.title,
  };
}

export function renderEmbedContent(batch: boolean) {
  return (vectors: number[][]) =>
    batch
      ? { embeddings: vectors.map((values) => ({ values })) }
      : { embedding: { values: vectors[0] ?? [] } };
}
