import { access } from "node:fs/promises";
import { join } from "node:path";
import type { Logger } from "@gw/logger";
import express, {
  type ErrorRequestHandler,
  type Express,
  type RequestHandler,
  type Response,
  Router,
} from "express";
import { consoleSecurityHeaders, IMMUTABLE, REVALIDATE } from "./headers.js";
import { sendPrecompressed } from "./precompressed.js";

/** CONSOLE_ENABLED / CONSOLE_DIR: where the built console (apps/console/dist) is read from. */
export interface ConsoleSettings {
  dir: string;
}

export const CONSOLE_PATH = "/console";

/**
 * Serves the web console, a single-page app built to static files, at /console: hashed assets cached for
 * good, index.html revalidated, any other GET under /console answered with index.html (the app routes on
 * the client), text files as their precompressed `.br` / `.gz` sibling where the build wrote one and the
 * client accepts it, every answer with the strict headers of headers.ts. Mounted before the body parser
 * and the API's authentication: the files are public, the API they call checks the credential.
 */
export function mountConsole(app: Express, settings: ConsoleSettings, logger: Logger): void {
  // `/console` itself: relative asset URLs resolve against `/console/`, so send the browser there.
  app.use((request, response, next) => {
    if (request.path !== CONSOLE_PATH || !isRead(request.method)) return next();
    const query = request.originalUrl.slice(request.path.length);
    response.redirect(308, `${CONSOLE_PATH}/${query}`);
  });
  app.use(CONSOLE_PATH, consoleRouter(settings, logger));
}

function consoleRouter(settings: ConsoleSettings, logger: Logger): Router {
  const router = Router({ caseSensitive: true, strict: true });
  router.use((request, _response, next) => (isRead(request.method) ? next() : next("router")));
  router.use(consoleSecurityHeaders());
  router.use(rejectDotSegments());
  router.use(requireBuilt(settings.dir, logger));
  router.use(precompressedFiles(settings.dir));
  router.use(
    express.static(settings.dir, {
      index: false,
      redirect: false,
      dotfiles: "ignore",
      // Its refusals as errors (a 412 or 416 fell through silently to the page, which then failed the
      // same way as a 500); a missing file goes on to the fallback below.
      fallthrough: false,
      cacheControl: false,
      setHeaders: (response, path) => {
        response.setHeader("Cache-Control", cacheControlFor(settings.dir, path));
      },
    }),
  );
  router.use(clientStatuses(true));
  // A missing hashed file is a 404, never the HTML page in its place (a stale tab asking for the
  // previous build's chunk would otherwise run HTML as a script).
  router.use("/assets", (_request, response) => notFound(response));
  router.use(spaFallback(settings.dir));
  router.use(clientStatuses(false));
  return router;
}

/**
 * The static server's own refusals answered with their own status: 412 for a failed `If-Match` or
 * `If-Unmodified-Since`, 416 (with its `Content-Range`) for an unsatisfiable `Range`. They reached the
 * edge's generic error handler, which answered 500 (issue 33). With `missingGoesOn`, a 404 (no such
 * file) continues to the next handler instead, as the static server's fallthrough did.
 */
function clientStatuses(missingGoesOn: boolean): ErrorRequestHandler {
  return (error: unknown, _request, response, next) => {
    const status = statusOf(error);
    if (status === undefined || status < 400 || status >= 500 || response.headersSent) return next(error);
    if (status === 404 && missingGoesOn) return next();
    response.setHeader("Cache-Control", REVALIDATE);
    response
      .status(status)
      .type("text/plain")
      .send(`${status === 404 ? "Not found" : statusText(status)}\n`);
  };
}

function statusOf(error: unknown): number | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const status = "status" in error ? error.status : "statusCode" in error ? error.statusCode : undefined;
  return typeof status === "number" && Number.isInteger(status) ? status : undefined;
}

function statusText(status: number): string {
  if (status === 412) return "Precondition failed";
  if (status === 416) return "Range not satisfiable";
  return "Refused";
}

function isRead(method: string): boolean {
  return method === "GET" || method === "HEAD";
}

function cacheControlFor(dir: string, path: string): string {
  return path.startsWith(`${join(dir, "assets")}/`) ? IMMUTABLE : REVALIDATE;
}

/**
 * A file with a `.br` / `.gz` sibling the client accepts goes as that sibling (precompressed.ts); any
 * other request goes on to the static server, which sends the identity bytes.
 */
function precompressedFiles(dir: string): RequestHandler {
  return (request, response, next) => {
    const file = fileUnder(dir, request.path);
    if (file === undefined) return next();
    sendPrecompressed(request, response, file, cacheControlFor(dir, file), () => next()).then(
      (sent) => {
        if (!sent) next();
      },
      (error: unknown) => next(error),
    );
  };
}

/**
 * The file a request path names under dir; undefined for a folder, a dotfile or anything odd (left to
 * the static server, which refuses them).
 */
function fileUnder(dir: string, path: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return undefined;
  }
  const segments = decoded.split("/").filter((segment) => segment !== "");
  if (segments.length === 0 || decoded.endsWith("/")) return undefined;
  if (segments.some((segment) => segment.startsWith(".") || /[\\\0]/.test(segment))) return undefined;
  return join(dir, ...segments);
}

/**
 * `..`, `.`, a slash or backslash or NUL inside a segment once decoded: a 404 before any file is looked
 * up. The static server refuses traversal too; this keeps such a path from reaching the fallback.
 */
function rejectDotSegments(): RequestHandler {
  return (request, response, next) => {
    const segments = request.path.split("/");
    for (const segment of segments) {
      let decoded: string;
      try {
        decoded = decodeURIComponent(segment);
      } catch {
        return notFound(response);
      }
      if (decoded === "." || decoded === ".." || /[/\\\0]/.test(decoded)) return notFound(response);
    }
    next();
  };
}

/** No index.html (the console was not built, or CONSOLE_DIR is wrong): a 503 that says so. */
function requireBuilt(dir: string, logger: Logger): RequestHandler {
  const index = join(dir, "index.html");
  let warned = false;
  return (_request, response, next) => {
    access(index).then(
      () => next(),
      () => {
        if (!warned) {
          warned = true;
          logger.warn({ dir }, "the web console is not built: /console answers 503");
        }
        notBuilt(response);
      },
    );
  };
}

function spaFallback(dir: string): RequestHandler {
  const index = join(dir, "index.html");
  return (request, response, next) => {
    const sendIdentity = (): void => {
      response.setHeader("Cache-Control", REVALIDATE);
      // A 412 or 416 of the send module goes on to clientStatuses, which answers it as such.
      response.sendFile(index, { cacheControl: false, dotfiles: "deny" }, (error) => {
        if (error && !response.headersSent) next(error);
      });
    };
    sendPrecompressed(request, response, index, REVALIDATE, sendIdentity).then(
      (sent) => {
        if (!sent) sendIdentity();
      },
      (error: unknown) => next(error),
    );
  };
}

function notFound(response: Response): void {
  response.setHeader("Cache-Control", REVALIDATE);
  response.status(404).type("text/plain").send("Not found\n");
}

const NOT_BUILT_MESSAGE =
  "The web console is not built. Run `pnpm --filter @gw/console build` (or `pnpm build`), or point CONSOLE_DIR at a built console.";

function notBuilt(response: Response): void {
  response.setHeader("Cache-Control", REVALIDATE);
  response.setHeader("Retry-After", "60");
  response.status(503);
  response.format({
    "text/html": () => {
      response.send(
        `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Console not built</title></head>` +
          `<body><h1>Console not built</h1><p>${escapeHtml(NOT_BUILT_MESSAGE)}</p></body></html>\n`,
      );
    },
    default: () => {
      response.json({ error: { message: NOT_BUILT_MESSAGE, code: "console_not_built" } });
    },
  });
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
