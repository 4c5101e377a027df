import type { Request, Response } from "express";
import type { Route } from "./route.js";

/** GET /healthz: the process is up and serving HTTP. */
export function healthzRoute(): Route {
  return {
    method: "get",
    path: "/healthz",
    handlers: [(_request: Request, response: Response) => void response.json({ status: "ok" })],
  };
}
