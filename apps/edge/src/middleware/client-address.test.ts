import { describe, expect, it } from "vitest";
import { parseTrustedProxies, TrustedProxies } from "./client-address.js";

describe("TrustedProxies", () => {
  const proxies = new TrustedProxies(["10.0.0.0/8", "192.168.1.7", "fd00::/8"]);

  it("trusts addresses inside its ranges only, IPv4-mapped IPv6 as its IPv4 address", () => {
    expect(proxies.trusts("10.255.0.1")).toBe(true);
    expect(proxies.trusts("::ffff:10.1.2.3")).toBe(true);
    expect(proxies.trusts("192.168.1.7")).toBe(true);
    expect(proxies.trusts("fd12::1")).toBe(true);
    expect(proxies.trusts("11.0.0.1")).toBe(false);
    expect(proxies.trusts("192.168.1.8")).toBe(false);
    expect(proxies.trusts("fe80::1")).toBe(false);
    expect(proxies.trusts("not-an-address")).toBe(false);
  });

  it("by default trusts nobody: X-Forwarded-For is ignored and the peer is the client", () => {
    const none = new TrustedProxies([]);
    expect(none.size).toBe(0);
    expect(none.trusts("127.0.0.1")).toBe(false);
    expect(none.clientAddress("127.0.0.1", "203.0.113.9")).toBe("127.0.0.1");
  });

  it("ignores X-Forwarded-For from an untrusted peer (a caller cannot choose its bucket)", () => {
    expect(proxies.clientAddress("203.0.113.5", "198.51.100.1")).toBe("203.0.113.5");
    expect(proxies.clientAddress("::ffff:203.0.113.5", "10.0.0.1")).toBe("203.0.113.5");
  });

  it("takes the rightmost untrusted hop behind trusted proxies, not what the client wrote on the left", () => {
    expect(proxies.clientAddress("10.0.0.2", "203.0.113.9")).toBe("203.0.113.9");
    expect(proxies.clientAddress("10.0.0.2", "1.1.1.1, 203.0.113.9, 10.0.0.3")).toBe("203.0.113.9");
    expect(proxies.clientAddress("10.0.0.2", ["1.1.1.1, 203.0.113.9", "192.168.1.7"])).toBe("203.0.113.9");
  });

  it("answers the leftmost hop when every hop is trusted, the peer when there is no header", () => {
    expect(proxies.clientAddress("10.0.0.2", "10.0.0.9, 10.0.0.3")).toBe("10.0.0.9");
    expect(proxies.clientAddress("10.0.0.2", undefined)).toBe("10.0.0.2");
    expect(proxies.clientAddress(undefined, "203.0.113.9")).toBe("unknown");
  });

  it("stops at a hop that is not an address, keeping the last address it read", () => {
    expect(proxies.clientAddress("10.0.0.2", "evil, 10.0.0.3")).toBe("10.0.0.3");
    expect(proxies.clientAddress("10.0.0.2", "")).toBe("10.0.0.2");
  });

  it("reads at most 32 hops from the right", () => {
    const trustedChain = Array.from({ length: 40 }, (_, index) => `10.0.0.${index + 1}`);
    expect(proxies.clientAddress("10.0.0.254", ["203.0.113.9", ...trustedChain].join(","))).toBe("10.0.0.9");
  });
});

describe("parseTrustedProxies", () => {
  it("reads a comma-separated list of CIDR ranges and addresses", () => {
    expect(parseTrustedProxies(" 10.0.0.0/8 ,127.0.0.1,, ::1/128 ")).toEqual([
      "10.0.0.0/8",
      "127.0.0.1",
      "::1/128",
    ]);
    expect(parseTrustedProxies("")).toEqual([]);
  });

  it.each(["10.0.0.0/33", "::1/129", "10.0.0.0/8/1", "10.0.0.0/x", "10.0.0.0/", "example.com", "10.0.0.256"])(
    "refuses %s, naming it",
    (entry) => {
      expect(() => parseTrustedProxies(`127.0.0.1,${entry}`)).toThrow(
        `not an IP address or CIDR range: ${JSON.stringify(entry)}`,
      );
    },
  );
});
