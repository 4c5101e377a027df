import { GatewayError } from "@gw/errors";

/** A DNS name or IPv4 address, or a bracketed IPv6 address, each with an optional port. */
const HOST =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?|\[[0-9A-Fa-f:.]{2,45}\])(?::(\d{1,5}))?$/;

/**
 * The origin a request reached, `protocol://host`, from its `Host` header (or `fallbackHost` without
 * one), checked before it is parsed: a malformed `Host` (`a b`, `[::1`, a port past 65535) made
 * `new URL()` throw while the 402 offer was built, a 500 with a stack (issue 33). Now a 400 naming
 * the header, in the route's shape. The caller's public base URL, when configured, is used instead
 * and never reaches this.
 */
export function requestOrigin(protocol: string, host: string | undefined, fallbackHost = "localhost"): URL {
  const value = host ?? fallbackHost;
  const match = HOST.exec(value);
  if (match && value.length <= 300 && (match[1] === undefined || Number(match[1]) <= 65_535)) {
    try {
      return new URL(`${protocol === "https" ? "https" : "http"}://${value}`);
    } catch {
      // refused below
    }
  }
  throw new GatewayError("invalid_request", "the Host header is not a valid host name", {
    code: "invalid_request",
    metadata: { header: "host" },
  });
}
