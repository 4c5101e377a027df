import { readOpenApiJson } from "@gw/openapi";
import type { Request, Response } from "express";
import type { Route } from "./route.js";

/**
 * GET /openapi.json: the committed OpenAPI document of the whole REST API (the edge's routes and the
 * management routes it forwards). Read once when the app is built; no credential needed.
 */
export function openApiRoute(document: string = readOpenApiJson()): Route {
  const handler = (_request: Request, response: Response): void => {
    response.type("application/json").send(document);
  };
  return { method: "get", path: "/openapi.json", handlers: [handler] };
}
