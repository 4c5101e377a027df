import { BlockList, isIP } from "node:net";

/** Hops of X-Forwarded-For looked at, at most: a chain of proxies longer than this is not a real one. */
const MAX_HOPS = 32;
const IPV4_MAPPED = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;

/**
 * The proxies in front of this edge (TRUSTED_PROXIES: a list of CIDR ranges or single addresses).
 * Only a peer in this list may say, in `X-Forwarded-For`, who its client was; anything an untrusted
 * peer sends there is ignored, so a caller cannot pick the flood guard's bucket it counts against.
 */
export class TrustedProxies {
  private readonly list = new BlockList();
  readonly size: number;

  constructor(entries: readonly string[]) {
    for (const entry of entries) addEntry(this.list, entry);
    this.size = entries.length;
  }

  trusts(address: string): boolean {
    if (this.size === 0) return false;
    const ip = normalise(address);
    const family = isIP(ip);
    if (family === 0) return false;
    return this.list.check(ip, family === 4 ? "ipv4" : "ipv6");
  }

  /**
   * The client's address: the peer itself unless the peer is trusted; then the rightmost hop of
   * `X-Forwarded-For` that is not a trusted proxy (each trusted proxy appends the address it saw, so
   * hops left of the first untrusted one are whatever that client chose to write). When every hop is
   * trusted, the leftmost one; a hop that is not an address ends the walk at the last address read.
   */
  clientAddress(peer: string | undefined, forwardedFor: string | string[] | undefined): string {
    const peerAddress = normalise(peer ?? "unknown");
    if (!this.trusts(peerAddress) || forwardedFor === undefined) return peerAddress;
    const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(",") : forwardedFor).split(",");
    let client = peerAddress;
    for (let index = hops.length - 1; index >= Math.max(0, hops.length - MAX_HOPS); index--) {
      const hop = normalise((hops[index] ?? "").trim());
      if (isIP(hop) === 0) return client;
      client = hop;
      if (!this.trusts(hop)) return hop;
    }
    return client;
  }
}

/** Parses TRUSTED_PROXIES' comma-separated list; throws naming the first entry that is not a range. */
export function parseTrustedProxies(value: string): string[] {
  const entries = value
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
  const probe = new BlockList();
  for (const entry of entries) addEntry(probe, entry);
  return entries;
}

function addEntry(list: BlockList, entry: string): void {
  const [address = "", prefixText, ...rest] = entry.split("/");
  const ip = normalise(address);
  const family = isIP(ip);
  const maxPrefix = family === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? maxPrefix : Number(prefixText);
  const validPrefix = prefixText === undefined || /^\d{1,3}$/.test(prefixText);
  if (family === 0 || rest.length > 0 || !validPrefix || prefix > maxPrefix) {
    throw new Error(`not an IP address or CIDR range: ${JSON.stringify(entry)}`);
  }
  list.addSubnet(ip, prefix, family === 4 ? "ipv4" : "ipv6");
}

/** `::ffff:10.0.0.1` (how a dual-stack socket reports an IPv4 peer) is the IPv4 address it carries. */
function normalise(address: string): string {
  return IPV4_MAPPED.exec(address)?.[1] ?? address;
}
