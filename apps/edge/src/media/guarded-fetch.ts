import { isIP } from "node:net";
import type { Logger } from "@gw/logger";
import { type AddressVerdict, classifyAddress } from "./address-policy.js";
import { dnsResolver, type ResolvedAddress } from "./dns.js";
import { readMedia } from "./media-response.js";
import { requestPinned, type VettedAddress } from "./pinned-request.js";
import { GuardedFetchRefused, transportProblem } from "./refusal.js";
import { checkUrl, type FetchTarget, originOf } from "./url-policy.js";

export { GuardedFetchRefused } from "./refusal.js";

// Fetching a URL on a caller's behalf (an image or PDF URL a target provider needs as bytes), safely:
// http(s) only, no credentials in the URL, no blocked port; the host resolved once and every address
// it resolves to public (no loopback, private, link-local, CGNAT, metadata, ...); the connection made
// to the address that was checked; the same again on every redirect, up to a limit; the body under a
// size cap and the whole fetch under a time cap; the content type one the caller's target takes.
// Every failure is a GuardedFetchRefused whose reason is a sentence naming what was refused, and names
// only scheme and host: a URL's path and query may carry the caller's credentials.

import type { FetchedMedia, MediaFetcher } from "./fetcher.js";

export type { ResolvedAddress } from "./dns.js";
export type { FetchedMedia, MediaFetcher };

export interface GuardedFetchOptions {
  /** The body's cap in bytes (MEDIA_FETCH_MAX_BYTES). */
  maxBytes: number;
  /** The whole fetch's cap, resolution, redirects and body included (MEDIA_FETCH_TIMEOUT_MS). */
  timeoutMs: number;
  /** Redirects followed at most (MEDIA_FETCH_MAX_REDIRECTS); one more is refused. */
  maxRedirects: number;
  /** Test seam: how a host name resolves (default: A and AAAA queries to the system's name servers). */
  resolve?: (host: string) => Promise<ResolvedAddress[]>;
  /** Test seam: addresses allowed although the policy refuses them (tests serve on 127.0.0.1). */
  allowAddresses?: (address: string) => boolean;
  /** Where fetches and refusals are logged (scheme and host only); none by default. */
  logger?: Logger;
}

/** The options with the resolver chosen (the seam's, or the default one, made once per fetcher). */
type Settings = GuardedFetchOptions & { resolve: NonNullable<GuardedFetchOptions["resolve"]> };

export function createGuardedFetcher(given: GuardedFetchOptions): MediaFetcher {
  const options: Settings = { ...given, resolve: given.resolve ?? dnsResolver() };
  return async (url, allowedContentTypes) => {
    const started = performance.now();
    try {
      const media = await fetchGuarded(url, allowedContentTypes, options);
      options.logger?.debug(
        {
          media_origin: originOf(url),
          bytes: media.bytes.length,
          ms: Math.round(performance.now() - started),
        },
        "media fetched",
      );
      return media;
    } catch (error) {
      const refusal =
        error instanceof GuardedFetchRefused
          ? error
          : new GuardedFetchRefused(`${originOf(url)} ${transportProblem(error)}`);
      options.logger?.info({ media_origin: originOf(url), reason: refusal.reason }, "media fetch refused");
      throw refusal;
    }
  };
}

async function fetchGuarded(
  url: string,
  allowedContentTypes: readonly string[],
  options: Settings,
): Promise<FetchedMedia> {
  const deadline = new Deadline(options.timeoutMs);
  const limits = { maxBytes: options.maxBytes, allowedContentTypes };
  try {
    let next: string | URL = url;
    for (let hop = 0; ; hop++) {
      const target = vetUrl(next, hop);
      const vetted = await deadline.race(vetAddress(target, hop, options));
      const exchange = await deadline
        .race(requestPinned(target, vetted, allowedContentTypes.join(", "), deadline.signal))
        .catch((error: unknown) => {
          throw new GuardedFetchRefused(`${target.origin} ${transportProblem(error)}`);
        });
      if (exchange.kind === "response")
        return await deadline.race(readMedia(exchange.response, target.origin, limits));
      if (hop >= options.maxRedirects)
        throw new GuardedFetchRefused(
          `${originOf(url)} redirected more than ${options.maxRedirects} times, the limit for a media fetch`,
        );
      next = redirectTarget(target, exchange.status, exchange.location);
    }
  } catch (error) {
    if (deadline.expired)
      throw new GuardedFetchRefused(
        `the fetch of ${originOf(url)} did not finish within ${options.timeoutMs} ms`,
      );
    throw error;
  } finally {
    deadline.clear();
  }
}

/** The static checks (scheme, credentials, port, host) of the URL or of a redirect's target. */
function vetUrl(url: string | URL, hop: number): FetchTarget {
  const check = checkUrl(url);
  if (check.ok) return check.target;
  const subject = hop === 0 ? "the media URL" : `the redirect to ${originOf(url)}`;
  throw new GuardedFetchRefused(`${subject} ${check.problem}`);
}

/** The address to connect to: the literal, or the host's first answer once every answer is public. */
async function vetAddress(target: FetchTarget, hop: number, options: Settings): Promise<VettedAddress> {
  const verdictFor = (address: string): AddressVerdict =>
    options.allowAddresses?.(address) === true ? { allowed: true } : classifyAddress(address);
  const where = hop === 0 ? target.origin : `the redirect to ${target.origin}`;
  if (target.literal) {
    const verdict = verdictFor(target.hostname);
    if (!verdict.allowed)
      throw new GuardedFetchRefused(`${where} is ${verdict.what}, which media fetches may not reach`);
    return { address: target.hostname, family: isIP(target.hostname) === 6 ? 6 : 4 };
  }
  const answers = await resolveHost(target.hostname, options);
  const subject = hop === 0 ? `the host ${target.hostname}` : where;
  for (const { address } of answers) {
    const verdict = verdictFor(address);
    // The address itself is not named: it would tell a caller what internal names resolve to.
    if (!verdict.allowed)
      throw new GuardedFetchRefused(
        `${subject} resolves to ${verdict.what}, which media fetches may not reach`,
      );
  }
  const [first] = answers as [ResolvedAddress, ...ResolvedAddress[]];
  return { address: first.address, family: isIP(first.address) === 6 ? 6 : 4 };
}

async function resolveHost(hostname: string, options: Settings): Promise<ResolvedAddress[]> {
  let answers: ResolvedAddress[];
  try {
    answers = await options.resolve(hostname);
  } catch {
    throw new GuardedFetchRefused(`the host ${hostname} could not be resolved`);
  }
  if (answers.length === 0) throw new GuardedFetchRefused(`the host ${hostname} resolves to no address`);
  return answers;
}

function redirectTarget(from: FetchTarget, status: number, location: string | undefined): URL {
  if (location === undefined)
    throw new GuardedFetchRefused(`${from.origin} answered a ${status} redirect without a Location`);
  try {
    return new URL(location, from.url);
  } catch {
    throw new GuardedFetchRefused(`${from.origin} redirected to a Location that is not a valid URL`);
  }
}

/** The whole fetch's time cap: one timer, one signal for every request it makes. */
class Deadline {
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private readonly expiry: Promise<never>;

  constructor(ms: number) {
    this.timer = setTimeout(() => this.controller.abort(), ms);
    this.expiry = new Promise<never>((_, reject) =>
      this.controller.signal.addEventListener("abort", () => reject(new Error("deadline")), { once: true }),
    );
    this.expiry.catch(() => {}); // raced, never awaited alone
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get expired(): boolean {
    return this.controller.signal.aborted;
  }

  race<T>(work: Promise<T>): Promise<T> {
    return Promise.race([work, this.expiry]);
  }

  clear(): void {
    clearTimeout(this.timer);
  }
}
