import type { RequestHandler, Response } from "express";

/**
 * The console's Content-Security-Policy: everything from this origin, nothing inline (the build emits no
 * inline script or style), no framing, no <base> rewriting. `data:` images only, for small icons.
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "img-src 'self' data:",
  "style-src 'self'",
  "script-src 'self'",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join("; ");

const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "Content-Security-Policy": CONSOLE_CSP,
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "no-referrer",
};

export function setSecurityHeaders(response: Response): void {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) response.setHeader(name, value);
}

/** Every answer under /console carries them, the 404s and the 503 included. */
export function consoleSecurityHeaders(): RequestHandler {
  return (_request, response, next) => {
    setSecurityHeaders(response);
    next();
  };
}

/** Content-hashed files never change under their name; everything else is revalidated on each load. */
export const IMMUTABLE = "public, max-age=31536000, immutable";
export const REVALIDATE = "no-cache";
