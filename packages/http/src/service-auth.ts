import { GatewayError } from "@gw/errors";
import type { RequestHandler } from "express";

/** The HTTP header that carries a service token (the same name as the gRPC metadata key). */
export const SERVICE_TOKEN_HTTP_HEADER = "x-gw-service-token";

/**
 * The client's address as the edge determined it (the peer, or X-Forwarded-For from a TRUSTED_PROXIES
 * peer), set by the edge on every request it forwards after dropping any copy the client sent. The
 * owning app reads it for per-address limits; only the edge can reach it where service tokens are on.
 */
export const CLIENT_ADDRESS_HTTP_HEADER = "x-gw-client-address";

/** The forwarded client address, or the peer's own address when no edge named one. */
export function forwardedClientAddress(request: {
  headers: Record<string, string | string[] | undefined>;
  socket: { remoteAddress?: string | undefined };
}): string {
  const header = request.headers[CLIENT_ADDRESS_HTTP_HEADER];
  if (typeof header === "string" && header.length > 0 && header.length <= 64) return header;
  return request.socket.remoteAddress ?? "unknown";
}

/**
 * The verifier, seen structurally (@gw/rpc's ServiceTokenVerifier fits): `cachedIssuer` answers
 * synchronously for a token seen before, `verify` checks a new one or rejects.
 */
export interface ServiceTokenCheck {
  cachedIssuer(token: string): string | undefined;
  verify(token: string | undefined): Promise<string>;
}

export interface ServiceAuthOptions {
  /** Apps whose tokens this port accepts (in the split plane: the edge, which forwards to it). */
  callers: readonly string[];
  /** Paths served without a token: health checks, which reveal nothing. */
  open?: readonly string[];
}

const refused = () =>
  new GatewayError("authentication", "service token missing or invalid", { code: "service_token_invalid" });

/**
 * A control-plane REST port answers only the apps it names: a request without a valid service token
 * is a 401 in the app's error envelope, one from another app a 403, before any route runs.
 */
export function requireServiceToken(check: ServiceTokenCheck, options: ServiceAuthOptions): RequestHandler {
  const callers = new Set(options.callers);
  const open = new Set(options.open ?? ["/healthz"]);
  return (request, _response, next) => {
    if (open.has(request.path)) {
      next();
      return;
    }
    const header = request.headers[SERVICE_TOKEN_HTTP_HEADER];
    // Node joins repeated headers of unknown names with ", "; a token never contains one.
    const token = typeof header === "string" && !header.includes(",") ? header : undefined;
    const admit = (caller: string): void => {
      if (callers.has(caller)) next();
      else
        next(
          new GatewayError("permission", `${caller} may not call this service`, {
            code: "service_not_allowed",
          }),
        );
    };
    const cached = token === undefined ? undefined : check.cachedIssuer(token);
    if (cached !== undefined) {
      admit(cached);
      return;
    }
    check.verify(token).then(admit, () => next(refused()));
  };
}
