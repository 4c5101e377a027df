import { extractSecret, hashSecret } from "@gw/auth";
import { GatewayError } from "@gw/errors";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { TrustedProxies } from "./client-address.js";
import { type BucketLimit, TokenBuckets } from "./token-buckets.js";

/** Per client address and per presented credential; thresholds are this edge's own (FLOOD_* settings). */
export interface FloodLimits {
  address: BucketLimit;
  key: BucketLimit;
}

export const DEFAULT_FLOOD_LIMITS: FloodLimits = {
  address: { perSecond: 2_000, burst: 4_000 },
  key: { perSecond: 1_000, burst: 2_000 },
};

/**
 * The spec's edge layer against traffic far beyond reasonable use: a token bucket per client address and
 * one per credential (its hash; unknown credentials included, so a key-guessing flood is slowed too),
 * checked before anything else on every route with no remote call. Over the bucket → 429 with
 * `Retry-After`; the block lifts by itself as the bucket refills. The thresholds sit far above what an
 * account's own limits let through, so a caller within them is never blocked by this edge. Behind a
 * load balancer, the client address comes from `X-Forwarded-For` when (and only when) the peer is one
 * of `proxies` (TRUSTED_PROXIES); otherwise every client would share the balancer's bucket.
 */
export function floodGuard(
  limits: FloodLimits,
  now: () => number,
  proxies: TrustedProxies = new TrustedProxies([]),
): RequestHandler {
  const byAddress = new TokenBuckets(limits.address, now);
  const byKey = new TokenBuckets(limits.key, now);
  const keysLimited = limits.key.perSecond > 0;
  return (request: Request, _response: Response, next: NextFunction) => {
    const address = proxies.clientAddress(request.socket.remoteAddress, request.headers["x-forwarded-for"]);
    const addressWait = byAddress.take(address);
    if (addressWait > 0) return next(flooded("this client address", addressWait));
    const credential = keysLimited ? presentedCredential(request) : undefined;
    const keyWait = credential === undefined ? 0 : byKey.take(rememberHash(request, credential));
    if (keyWait > 0) return next(flooded("this key", keyWait));
    next();
  };
}

const hashes = new WeakMap<Request, { secret: string; hash: string }>();

/** Hashes the credential once per request: authentication reuses it (see `credentialHash`). */
function rememberHash(request: Request, secret: string): string {
  const hash = hashSecret(secret);
  hashes.set(request, { secret, hash });
  return hash;
}

/** The SHA-256 the guard already took of this exact secret on this request, if it did. */
export function credentialHash(request: Request, secret: string): string | undefined {
  const known = hashes.get(request);
  return known?.secret === secret ? known.hash : undefined;
}

/** The credential as authentication will read it; a malformed header is authentication's to refuse. */
function presentedCredential(request: Request): string | undefined {
  try {
    return extractSecret({ headers: request.headers, query: request.query as Record<string, unknown> });
  } catch {
    return undefined;
  }
}

function flooded(who: string, waitMs: number): GatewayError {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return new GatewayError(
    "rate_limit",
    `too many requests from ${who} on this edge; retry after ${seconds} s`,
    {
      code: "flood_limited",
      metadata: { limit_source: "edge" },
      headers: { "Retry-After": String(seconds) },
    },
  );
}
