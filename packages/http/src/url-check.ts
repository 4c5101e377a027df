import { GatewayError } from "@gw/errors";
import type { RequestHandler } from "express";

// NUL and the other C0 controls, and DEL: nothing the control plane names or looks up contains one, and
// PostgreSQL refuses NUL in text (a lookup with it was a 500).
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;

const malformed = (where: string) =>
  new GatewayError("invalid_request", `the ${where} has a malformed percent-escape or a control character`, {
    code: "malformed_url",
  });

function decodes(component: string): string | undefined {
  try {
    return decodeURIComponent(component);
  } catch {
    return undefined;
  }
}

/**
 * The control plane's first middleware: a path segment or query component that does not decode (`%ff`,
 * `%zz`) or decodes to a control character (`%00`) is a 400 in the app's envelope before any route
 * decodes it (express answers a bad escape in a route parameter with an error our handler would
 * render as a 500) or a database sees it.
 */
export function rejectMalformedUrl(): RequestHandler {
  return (request, _response, next) => {
    const url = request.originalUrl;
    const queryAt = url.indexOf("?");
    const path = queryAt === -1 ? url : url.slice(0, queryAt);
    // Fast path: most URLs carry no escape and no control character at all.
    if (url.includes("%") || CONTROL.test(url)) {
      for (const segment of path.split("/")) {
        const decoded = decodes(segment);
        if (decoded === undefined || CONTROL.test(decoded)) return next(malformed("path"));
      }
      if (queryAt !== -1) {
        for (const part of url.slice(queryAt + 1).split(/[&=]/)) {
          const decoded = decodes(part.replaceAll("+", " "));
          if (decoded === undefined || CONTROL.test(decoded)) return next(malformed("query"));
        }
      }
    }
    next();
  };
}
