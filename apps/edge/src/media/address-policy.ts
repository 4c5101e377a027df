import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

// Which addresses a media fetch made on a caller's behalf may connect to: globally routable unicast
// only. ipaddr.js parses the addresses (every IPv6 spelling, embedded IPv4) and names the IANA
// special-purpose ranges (its `range()`: loopback, private, linkLocal, carrierGradeNat, uniqueLocal,
// ipv4Mapped, rfc6052, 6to4, teredo, reserved, ...); the policy on top of it is ours: anything it does
// not call `unicast` is refused, an IPv6 address must also lie in 2000::/3 (global unicast, RFC 4291),
// which refuses what the library leaves as unicast (::/96, IPv4-compatible), and an address that
// carries an IPv4 address (IPv4-mapped, NAT64's well-known prefix) is judged by the IPv4 it carries.

export type AddressVerdict = { allowed: true } | { allowed: false; what: string };

/** Cloud metadata services, named on their own so a refusal says what was reached for. */
const METADATA = new Set([
  "169.254.169.254", // AWS, GCP, Azure, OpenStack, DigitalOcean
  "169.254.170.2", // AWS ECS task metadata
  "169.254.169.123", // AWS time sync
  "100.100.100.200", // Alibaba Cloud
  "192.0.0.192", // Oracle Cloud
  "fd00:ec2::254", // AWS IMDS over IPv6
  "fd00:ec2::123",
]);

/** ipaddr.js's range names, as a refusal says them. */
const RANGE_WORDS: Record<string, string> = {
  unspecified: "an unspecified address (0.0.0.0/8 or ::)",
  broadcast: "the broadcast address",
  multicast: "a multicast address",
  linkLocal: "a link-local address",
  loopback: "a loopback address",
  carrierGradeNat: "a shared carrier-grade NAT address (100.64.0.0/10)",
  private: "a private-network address",
  reserved: "a reserved or documentation address",
  benchmarking: "a benchmarking address",
  uniqueLocal: "a unique-local (private) IPv6 address",
  deprecatedSiteLocal: "a site-local IPv6 address",
  discard: "a discard-only IPv6 address",
  rfc6145: "an IPv4-translated IPv6 address",
  rfc6052: "a local-use NAT64 address",
  "6to4": "a 6to4 tunnel address",
  teredo: "a Teredo tunnel address",
};

const GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR("2000::/3");
const NAT64_WELL_KNOWN = ipaddr.IPv6.parseCIDR("64:ff9b::/96");

/** Whether a fetch may connect to `address` (an IP address as DNS or a URL's host gives it). */
export function classifyAddress(address: string): AddressVerdict {
  const bare = address.startsWith("[") && address.endsWith("]") ? address.slice(1, -1) : address;
  // Only the canonical spellings node connects to: "0x7f.1" or "2130706433" are a URL parser's
  // business (new URL() turns them into 127.0.0.1 before this is asked), never a resolver's answer.
  const family = isIP(bare);
  if (family === 0) return { allowed: false, what: "not an IP address" };
  if (family === 4) return classifyV4(ipaddr.IPv4.parse(bare));
  return classifyV6(ipaddr.IPv6.parse(canonicalV6(bare)));
}

/**
 * An IPv6 address in the URL standard's serialisation, without a zone id (which names an interface, not
 * another address). ipaddr.js reads a dotted tail after "::" as IPv4-mapped ("::1.2.3.4" as
 * ::ffff:102:304) where RFC 4291 means IPv4-compatible (::102:304); the URL parser reads it as the
 * socket does, and its hex-only output is what ipaddr.js then parses.
 */
function canonicalV6(address: string): string {
  const withoutZone = address.split("%")[0] ?? address;
  return new URL(`http://[${withoutZone}]/`).hostname.slice(1, -1);
}

function classifyV4(address: ipaddr.IPv4): AddressVerdict {
  if (METADATA.has(address.toString())) return { allowed: false, what: "a cloud metadata address" };
  const range = address.range();
  if (range === "unicast") return { allowed: true };
  return { allowed: false, what: RANGE_WORDS[range] ?? `a special-purpose address (${range})` };
}

function classifyV6(address: ipaddr.IPv6): AddressVerdict {
  if (METADATA.has(address.toRFC5952String())) return { allowed: false, what: "a cloud metadata address" };
  const range = address.range();
  if (range === "ipv4Mapped") return embedded(address.toIPv4Address(), "an IPv4-mapped IPv6 form of");
  if (range === "rfc6052" && address.match(NAT64_WELL_KNOWN))
    return embedded(lowV4(address), "a NAT64 form of");
  if (range !== "unicast")
    return { allowed: false, what: RANGE_WORDS[range] ?? `a special-purpose IPv6 address (${range})` };
  if (!address.match(GLOBAL_UNICAST))
    return { allowed: false, what: "an IPv6 address outside global unicast (2000::/3)" };
  return { allowed: true };
}

/** An address that carries an IPv4 address is as reachable as that IPv4 address. */
function embedded(v4: ipaddr.IPv4, form: string): AddressVerdict {
  const verdict = classifyV4(v4);
  if (verdict.allowed) return verdict;
  return { allowed: false, what: `${form} ${verdict.what}` };
}

function lowV4(address: ipaddr.IPv6): ipaddr.IPv4 {
  const [high = 0, low = 0] = address.parts.slice(6);
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}
