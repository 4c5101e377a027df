import { z } from "zod";

/**
 * The query members of a cursor-paged list route (newest first): `limit` 1 to 100, default 20, and the
 * previous page's opaque `next_cursor`. One definition, so every list the console pages through takes
 * the same members with the same bounds. `.extend()` it with the route's own filters.
 */
export const cursorPageQuery = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(100)
    .default(20)
    .meta({ description: "Page size, 1 to 100 (default 20)." }),
  cursor: z
    .string()
    .min(1)
    .max(512)
    .optional()
    .meta({ description: "The previous page's next_cursor; omitted for the newest page." }),
});
