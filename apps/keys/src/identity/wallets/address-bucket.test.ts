import { describe, expect, it } from "vitest";
import { addressBucket } from "./creation-limits.js";

// The bucket a new account's creation counts in (per-address limits of wallet sign-in and first
// payments): one IPv4 address, or one IPv6 /64, however the client writes it.
describe("addressBucket", () => {
  it("counts IPv4 per address, an IPv4-mapped IPv6 address as its IPv4 one", () => {
    expect(addressBucket("203.0.113.7")).toBe("203.0.113.7");
    expect(addressBucket("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(addressBucket("::FFFF:203.0.113.7")).toBe("203.0.113.7");
  });

  it("counts every address of an IPv6 /64 as one, in canonical form", () => {
    const bucket = "2001:db8:0:1::/64";
    for (const address of [
      "2001:db8:0:1::1",
      "2001:0DB8:0000:0001:ffff:ffff:ffff:ffff",
      "2001:db8::1:0:0:0:5",
      "2001:db8:0:1:1:2:3:4%eth0",
      "2001:db8:0:1::1.2.3.4",
    ]) {
      expect([address, addressBucket(address)]).toEqual([address, bucket]);
    }
    expect(addressBucket("2001:db8:0:2::1")).toBe("2001:db8:0:2::/64");
    expect(addressBucket("::1")).toBe("0:0:0:0::/64");
    expect(addressBucket("fe80::")).toBe("fe80:0:0:0::/64");
    expect(addressBucket("64:ff9b::1.2.3.4")).toBe("64:ff9b:0:0::/64");
    // Only `::ffff:a.b.c.d` is an IPv4 client; another IPv6 address ending in a dotted quad is IPv6.
    expect(addressBucket("2001:db8::ffff:192.0.2.7")).toBe("2001:db8:0:0::/64");
    // The trailing dotted quad is two groups: here it decides where the elided zeros go.
    expect(addressBucket("1::2:3:4:5:1.2.3.4")).toBe("1:0:2:3::/64");
  });

  it("keeps anything else as it is", () => {
    expect(addressBucket("unknown")).toBe("unknown");
    expect(addressBucket("::ffff:192.0.2.7.8")).toBe("::ffff:192.0.2.7.8");
  });
});
