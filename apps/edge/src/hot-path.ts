import { IncomingMessage, type RequestListener, type ServerOptions, ServerResponse } from "node:http";
import { notFoundHandler } from "@gw/http";
import type { ErrorRequestHandler, Express, Request, RequestHandler, Response } from "express";
import type { EdgeHttp } from "./app.js";
import type { EdgeContext } from "./pipeline/edge-context.js";
import { serverSpan } from "./pipeline/tracing.js";
import type { Route } from "./routes/route.js";

/**
 * The inference routes' dispatch without express's router (ARCHITECTURE "The hot path"): a POST to one
 * of them is matched in a static table and runs the same middleware instances the app runs before it
 * (request id and log, malformed-URL check, flood guard, body, x402), then the route's span and
 * handler, then on failure the same error handlers. Everything else, and every path the table does not
 * take literally (another case, a trailing slash, an escape, an absolute URL), goes to the express app
 * unchanged, so its answer is the app's by construction.
 */
export function hotPathListener(http: EdgeHttp, context: Pick<EdgeContext, "inFlight">): RequestListener {
  const { app, stack, inference } = http;
  const finish = finalHandler(app);
  const chainOf = (route: Route): HotRoute => {
    // What express does once the route matched: the route pattern (the metrics' label) on the request,
    // then the route's own span and handlers, counted while they run (app.ts).
    const label = { path: route.path };
    const matched: RequestHandler = (request, _response, next) => {
      (request as Request & { route: unknown }).route = label;
      next();
    };
    const handlers: RequestHandler[] = [
      ...stack.front,
      stack.body,
      ...(stack.payments ? [stack.payments] : []),
      matched,
      serverSpan(route.method, route.path),
      ...route.handlers.map((handler) => context.inFlight.track(handler)),
      // A handler that calls next(): what the app's last layer answers.
      notFoundHandler(),
    ];
    return { handlers, errors: stack.errors };
  };
  const exact = new Map<string, HotRoute>();
  for (const route of inference.exact) {
    const hot = chainOf(route);
    for (const path of typeof route.path === "string" ? [route.path] : route.path) exact.set(path, hot);
  }
  const gemini = chainOf(inference.gemini);
  return (request, response) => {
    if (request.method === "POST") {
      const url = request.url ?? "";
      const queryAt = url.indexOf("?");
      const path = queryAt === -1 ? url : url.slice(0, queryAt);
      const route = exact.get(path) ?? (GEMINI_METHOD.test(path) ? gemini : undefined);
      if (route) {
        run(route, request as Request, response as Response, finish);
        return;
      }
    }
    app(request, response);
  };
}

/**
 * A Gemini method in its common spelling (`/v1beta/models/gemini-2.5-flash:generateContent`, also under
 * `/v1`): the paths express's `/v1beta/models/*rest` takes; escaped or nested names go to the app.
 */
const GEMINI_METHOD = /^\/v1(?:beta)?\/models\/[^/%]+:[A-Za-z]+$/;

interface HotRoute {
  handlers: RequestHandler[];
  errors: ErrorRequestHandler[];
}

/**
 * Runs a route's handlers in order as express's router does (a thrown error or rejected promise is
 * passed on as `next(error)`), then the error handlers with the error.
 */
function run(route: HotRoute, request: Request, response: Response, finish: Finish): void {
  // What express's app.handle and router set before the first layer (app.ts disables x-powered-by).
  request.res = response;
  request.baseUrl = "";
  request.originalUrl = request.url;
  const { handlers, errors } = route;
  let index = 0;
  let errorIndex = 0;
  const failed = (error: unknown): void => {
    const handler = errors[errorIndex++];
    if (!handler) {
      finish(error, request, response);
      return;
    }
    try {
      const result: unknown = handler(error, request, response, failed);
      // express's Layer: a promise rejected with nothing is still an error.
      if (result instanceof Promise) result.then(undefined, (reason) => failed(reason || rejection()));
    } catch (thrown) {
      failed(thrown);
    }
  };
  const next = (error?: unknown): void => {
    if (error) {
      failed(error);
      return;
    }
    const handler = handlers[index++];
    if (!handler) return;
    try {
      const result: unknown = handler(request, response, next);
      if (result instanceof Promise) result.then(undefined, (reason) => next(reason || rejection()));
    } catch (thrown) {
      next(thrown);
    }
  };
  next();
}

/**
 * node:http options under which every request and response is born with the app's prototypes. express
 * sets them on each request it handles (Object.setPrototypeOf on both, a hidden-class change per
 * request); born with them, that is a no-op (the same prototype), and the hot path runs its handlers on
 * the same objects without it. The two classes' prototypes chain to express's and become the app's,
 * so node:http constructs them with a plain `super` call.
 */
export function expressBorn(app: Express): ServerOptions {
  class EdgeRequest extends IncomingMessage {}
  class EdgeResponse extends ServerResponse<IncomingMessage> {}
  Object.setPrototypeOf(EdgeRequest.prototype, app.request);
  Object.setPrototypeOf(EdgeResponse.prototype, app.response);
  app.request = EdgeRequest.prototype as unknown as Express["request"];
  app.response = EdgeResponse.prototype as unknown as Express["response"];
  // node:http's typing wants the base classes themselves; these are their subclasses.
  return { IncomingMessage: EdgeRequest, ServerResponse: EdgeResponse as typeof ServerResponse };
}

const rejection = () => new Error("Rejected promise");

type Finish = (error: unknown, request: Request, response: Response) => void;

/**
 * Where an error goes that no error handler answered (the error envelope passes on only an error
 * after the headers went out): as express's final handler, it is logged (outside NODE_ENV=test) and
 * the connection is cut, since the answer under way cannot be completed.
 */
function finalHandler(app: Express): Finish {
  const logs = app.get("env") !== "test";
  return (error, request, response) => {
    if (logs) setImmediate(() => console.error(errorText(error)));
    if (response.headersSent) request.socket?.destroy();
    else response.status(500).end();
  };
}

function errorText(error: unknown): string {
  if (error instanceof Error) return error.stack ?? error.toString();
  return String(error);
}
