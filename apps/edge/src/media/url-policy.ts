import { isIP } from "node:net";

// What a media URL must be before anything is resolved or connected: parsed once, by the WHATWG URL
// parser (the one node's own fetch uses), whose host is then the only host used. That parser already
// turns every IPv4 spelling ("2130706433", "0x7f.1", "0177.0.0.1", "127.1", "127.0.0.1.") into its
// dotted quad, IPv4-mapped IPv6 into its canonical form, and refuses IPv6 zone ids ("[fe80::1%25eth0]"),
// so the address policy sees the address the socket would reach, never a spelling of it.

/** A URL that passed the checks that need no network: where to connect and how to name it. */
export interface FetchTarget {
  url: URL;
  /** Scheme and host (with a non-default port): what refusals and logs name; never path or query. */
  origin: string;
  /** The host to resolve, or the address literal, without IPv6 brackets. */
  hostname: string;
  port: number;
  /** The host is an IP address literal: nothing to resolve. */
  literal: boolean;
}

export type UrlCheck = { ok: true; target: FetchTarget } | { ok: false; problem: string };

/**
 * The Fetch standard's blocked ports (https://fetch.spec.whatwg.org/#port-blocking): services that an
 * HTTP request could be smuggled into (SMTP, IRC, SIP, ...). Browsers refuse them; so does this fetcher.
 */
const BAD_PORTS = new Set([
  0, 1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104,
  109, 110, 111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515,
  526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049,
  3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

/** Scheme and host of a URL, for refusals and logs; "a URL that does not parse" when it does not. */
export function originOf(url: string | URL): string {
  try {
    const parsed = typeof url === "string" ? new URL(url) : url;
    return parsed.host === "" ? `${parsed.protocol}` : `${parsed.protocol}//${parsed.host}`;
  } catch {
    return "a URL that does not parse";
  }
}

/** Checks a URL's scheme, credentials and port, and finds the host to connect to. */
export function checkUrl(text: string | URL): UrlCheck {
  let url: URL;
  try {
    url = typeof text === "string" ? new URL(text) : text;
  } catch {
    return { ok: false, problem: "is not a valid absolute URL" };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return {
      ok: false,
      problem: `uses the scheme "${url.protocol}"; only http: and https: URLs are fetched`,
    };
  if (url.username !== "" || url.password !== "")
    return { ok: false, problem: "carries a user name or password, which media fetches never send" };
  const port = url.port === "" ? (url.protocol === "https:" ? 443 : 80) : Number(url.port);
  if (BAD_PORTS.has(port))
    return { ok: false, problem: `uses port ${port}, a port the Fetch standard blocks (not a web port)` };
  const hostname = url.hostname.replace(/^\[(.*)\]$/, "$1");
  if (hostname === "") return { ok: false, problem: "has no host" };
  // RFC 6761: localhost and every name under it are loopback, whatever a name server says.
  if (/(^|\.)localhost\.?$/i.test(hostname))
    return { ok: false, problem: `names ${hostname}, a loopback host` };
  const literal = isIP(hostname) !== 0;
  return { ok: true, target: { url, origin: originOf(url), hostname, port, literal } };
}
