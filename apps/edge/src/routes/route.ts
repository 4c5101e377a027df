import type { RequestHandler } from "express";

/** One endpoint: app.ts registers every route from one flat list of these. */
export interface Route {
  method: "get" | "post" | "delete";
  path: string | string[];
  handlers: RequestHandler[];
}
