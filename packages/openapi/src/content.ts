import { z } from "zod";
import type { ZodOpenApiContentObject } from "zod-openapi";

export function json(schema: z.ZodType): ZodOpenApiContentObject {
  return { "application/json": { schema } };
}

/**
 * A streamed answer: Server-Sent Events, each `data:` line one JSON chunk of the named shape. OpenAPI
 * 3.1 cannot type the events of a stream, so the chunk's schema is referenced in the description.
 */
export function eventStream(description: string): ZodOpenApiContentObject {
  return { "text/event-stream": { schema: z.string().meta({ description }) } };
}

/** `{data: T}`: the envelope of the management API's single-object answers. */
export function dataOf<T extends z.ZodType>(schema: T) {
  return z.object({ data: schema });
}

/** `{deleted: true, data: {deleted: true}}`: what every DELETE answers. */
export const deletedSchema = z
  .object({ deleted: z.literal(true), data: z.object({ deleted: z.literal(true) }) })
  .meta({ id: "Deleted" });

export const healthSchema = z.object({ status: z.literal("ok") }).meta({ id: "Health" });
