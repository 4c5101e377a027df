import type { LookupAddress, LookupOptions } from "node:dns";
import http, { type IncomingMessage } from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import type { FetchTarget } from "./url-policy.js";

// One GET of a vetted target, connected to the one address that was vetted: the socket's `lookup`
// answers with that address whatever the host is, so a DNS answer that changes between the check and
// the connect (rebinding) is never asked for. Each request gets its own agent (`agent: false`): no
// pooled socket from an earlier hop is reused, and no agent configured from the proxy variables
// (NODE_USE_ENV_PROXY, HTTP_PROXY) carries the request somewhere else. Nothing the caller sent is
// forwarded: no cookies, no credentials, only the headers below.

export interface VettedAddress {
  address: string;
  family: 4 | 6;
}

export type Exchange =
  | { kind: "redirect"; status: number; location: string | undefined }
  | { kind: "response"; response: IncomingMessage };

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** A socket lookup that answers only `vetted`, in whichever of node's two callback shapes is asked for. */
export function pinnedLookup(vetted: VettedAddress): LookupFunction {
  return (_hostname: string, options: LookupOptions, callback) => {
    if (options.all) {
      const all: LookupAddress[] = [{ address: vetted.address, family: vetted.family }];
      callback(null, all);
    } else callback(null, vetted.address, vetted.family);
  };
}

/**
 * Sends the GET and settles on its response head: a redirect (the response already discarded) or the
 * response to read. `signal` is the whole fetch's deadline: aborting it destroys the request and, if a
 * response is being read, its body.
 */
export function requestPinned(
  target: FetchTarget,
  vetted: VettedAddress,
  accept: string,
  signal: AbortSignal,
): Promise<Exchange> {
  const client = target.url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request({
      method: "GET",
      hostname: target.hostname,
      port: target.port,
      path: `${target.url.pathname}${target.url.search}`,
      headers: {
        accept,
        // The bytes are passed on as they are: a compressed body would be the wrong bytes.
        "accept-encoding": "identity",
        "user-agent": "model-gateway-media-fetch",
      },
      agent: false,
      lookup: pinnedLookup(vetted),
      signal,
    });
    // `on`, not `once`: an abort after the head arrived errors the request again, and an unheard
    // 'error' would end the process.
    request.on("error", reject);
    request.once("response", (response) => {
      response.on("error", () => {}); // the body's reader hears it; this keeps a late one from throwing
      if (!REDIRECTS.has(response.statusCode ?? 0)) return resolve({ kind: "response", response });
      response.destroy();
      resolve({ kind: "redirect", status: response.statusCode ?? 0, location: response.headers.location });
    });
    request.end();
  });
}
