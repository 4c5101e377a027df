import { describe, expect, it } from "vitest";
import { classifyAddress } from "./address-policy.js";
import { checkUrl } from "./url-policy.js";

/** What the policy says of a URL's host when it is an address literal (the URL parser's spelling). */
function verdictOfUrl(url: string): string {
  const check = checkUrl(url);
  if (!check.ok) return `url: ${check.problem}`;
  if (!check.target.literal) return `name: ${check.target.hostname}`;
  const verdict = classifyAddress(check.target.hostname);
  return verdict.allowed ? "allowed" : verdict.what;
}

describe("classifyAddress: IPv4", () => {
  it.each([
    ["0.0.0.0", "unspecified"],
    ["0.1.2.3", "unspecified"],
    ["10.0.0.1", "private-network"],
    ["10.255.255.255", "private-network"],
    ["172.16.0.1", "private-network"],
    ["172.31.255.254", "private-network"],
    ["192.168.1.1", "private-network"],
    ["100.64.0.1", "carrier-grade NAT"],
    ["100.127.255.254", "carrier-grade NAT"],
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["169.254.0.1", "link-local"],
    ["169.254.169.254", "cloud metadata"],
    ["169.254.170.2", "cloud metadata"],
    ["100.100.100.200", "cloud metadata"],
    ["192.0.0.192", "cloud metadata"],
    ["192.0.0.8", "reserved"],
    ["192.0.2.1", "reserved"],
    ["198.51.100.1", "reserved"],
    ["203.0.113.1", "reserved"],
    ["198.18.0.1", "reserved"], // benchmarking 198.18.0.0/15: ipaddr.js lists it as reserved
    ["240.0.0.1", "reserved"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["255.255.255.255", "broadcast"],
  ])("refuses %s (%s)", (address, what) => {
    const verdict = classifyAddress(address);
    expect(verdict.allowed).toBe(false);
    if (!verdict.allowed) expect(verdict.what).toContain(what);
  });

  it.each([
    "1.1.1.1",
    "8.8.8.8",
    "93.184.215.14",
    "172.15.255.255",
    "172.32.0.1",
    "100.63.255.255",
    "100.128.0.1",
    "169.253.255.255",
    "11.0.0.1",
  ])("allows the public address %s, next to the ranges", (address) => {
    expect(classifyAddress(address)).toEqual({ allowed: true });
  });
});

describe("classifyAddress: IPv6", () => {
  it.each([
    ["::", "unspecified"],
    ["::1", "loopback"],
    ["0:0:0:0:0:0:0:1", "loopback"],
    ["fe80::1", "link-local"],
    ["fe80::1%eth0", "link-local"],
    ["febf::1", "link-local"],
    ["fc00::1", "unique-local"],
    ["fd12:3456::1", "unique-local"],
    ["fd00:ec2::254", "cloud metadata"],
    ["fec0::1", "site-local"],
    ["ff02::1", "multicast"],
    ["::ffff:127.0.0.1", "IPv4-mapped IPv6 form of a loopback"],
    ["::ffff:7f00:1", "IPv4-mapped IPv6 form of a loopback"],
    ["0:0:0:0:0:ffff:a00:1", "IPv4-mapped IPv6 form of a private-network"],
    ["::ffff:169.254.169.254", "IPv4-mapped IPv6 form of a cloud metadata"],
    ["::ffff:0:0", "IPv4-mapped IPv6 form of an unspecified"],
    ["64:ff9b::7f00:1", "NAT64 form of a loopback"],
    ["64:ff9b::a9fe:a9fe", "NAT64 form of a cloud metadata"],
    ["64:ff9b:1::1", "local-use NAT64"],
    ["::127.0.0.1", "outside global unicast"], // IPv4-compatible (deprecated): ::/96
    ["::7f00:1", "outside global unicast"],
    ["::1.2.3.4", "outside global unicast"], // ipaddr.js alone would read it as ::ffff:1.2.3.4, a public address
    ["100::1", "discard"],
    ["2002:7f00:1::1", "6to4"],
    ["2001:0:4136:e378::1", "Teredo"],
    ["2001:db8::1", "reserved"],
    ["5f00::1", "special-purpose"],
  ])("refuses %s (%s)", (address, what) => {
    const verdict = classifyAddress(address);
    expect(verdict.allowed).toBe(false);
    if (!verdict.allowed) expect(verdict.what).toContain(what);
  });

  it.each(["2606:4700:4700::1111", "2001:4860:4860::8888", "::ffff:8.8.8.8", "64:ff9b::808:808"])(
    "allows the public address %s (IPv4-mapped and NAT64 forms of a public IPv4 too)",
    (address) => {
      expect(classifyAddress(address)).toEqual({ allowed: true });
    },
  );

  it("refuses what is not an address at all (a resolver's odd answer, a spelling only URLs take)", () => {
    for (const odd of ["localhost", "0x7f.1", "2130706433", "127.1", "", "[::1]x"])
      expect(classifyAddress(odd), odd).toEqual({ allowed: false, what: "not an IP address" });
  });
});

describe("a URL's host as the policy sees it (the WHATWG parser's spelling)", () => {
  it.each([
    ["http://2130706433/", "loopback"],
    ["http://0x7f.1/", "loopback"],
    ["http://0x7f000001/", "loopback"],
    ["http://0177.0.0.1/", "loopback"],
    ["http://0177.1/", "loopback"],
    ["http://127.1/", "loopback"],
    ["http://127.0.0.1./", "loopback"],
    ["http://127.0.0.1%2e/", "loopback"],
    ["http://%31%32%37.0.0.1/", "loopback"],
    ["http://127\u30020\u30020\u30021/", "loopback"], // ideographic full stops
    ["http://\u2460\u2461\u2466.0.0.1/", "loopback"], // circled digits, mapped by IDNA
    ["http://0x7f.0x0.0x0.0x1/", "loopback"],
    ["http://[::127.0.0.1]/", "outside global unicast"],
    [
      "http://\u24db\u24de\u24d2\u24d0\u24db\u24d7\u24de\u24e2\u24e3/",
      "url: names localhost, a loopback host",
    ],
    ["http://0/", "unspecified"],
    ["http://0.0.0.0/", "unspecified"],
    ["http://[::]/", "unspecified"],
    ["http://[::1]/", "loopback"],
    ["http://[::ffff:127.0.0.1]/", "IPv4-mapped IPv6 form of a loopback"],
    ["http://[0:0:0:0:0:ffff:7f00:1]/", "IPv4-mapped IPv6 form of a loopback"],
    ["http://[::ffff:a9fe:a9fe]/", "cloud metadata"],
    ["http://169.254.169.254/latest/meta-data/", "cloud metadata"],
    ["http://0xa9fea9fe/", "cloud metadata"],
    ["http://2852039166/", "cloud metadata"],
    ["http://[fd00:ec2::254]/", "cloud metadata"],
    ["http://public@127.0.0.1/", "url: carries a user name or password"],
    ["http://127.0.0.1#@public.example/", "loopback"],
    ["http://127.0.0.1\\@public.example/", "loopback"],
    ["http://10.0.0.1:8080/", "private-network"],
    ["HTTP://LOCALHOST./", "url: names localhost., a loopback host"],
    ["http://api.localhost/", "url: names api.localhost, a loopback host"],
    ["http://notlocalhost/", "name: notlocalhost"],
    ["http://[fe80::1%25eth0]/", "url: is not a valid absolute URL"],
    ["http://[fe80::1%eth0]/", "url: is not a valid absolute URL"],
    ["http://1.2.3.4.5/", "url: is not a valid absolute URL"],
    ["http://example.com:65536/", "url: is not a valid absolute URL"],
    ["http://example.com:25/", "url: uses port 25, a port the Fetch standard blocks"],
    ["http://example.com:0/", "url: uses port 0"],
    ["https://example.com:6667/", "url: uses port 6667"],
    ["file:///etc/passwd", 'url: uses the scheme "file:"'],
    ["gopher://127.0.0.1:6379/_INFO", 'url: uses the scheme "gopher:"'],
    ["ftp://example.com/a.png", 'url: uses the scheme "ftp:"'],
    ["data:image/png;base64,AAAA", 'url: uses the scheme "data:"'],
    ["javascript:alert(1)", 'url: uses the scheme "javascript:"'],
    ["ws://example.com/", 'url: uses the scheme "ws:"'],
    ["dict://127.0.0.1:11211/", 'url: uses the scheme "dict:"'],
    ["/relative/path.png", "url: is not a valid absolute URL"],
  ])("%s -> %s", (url, expected) => {
    expect(verdictOfUrl(url)).toContain(expected);
  });

  it.each([
    ["http://8.8.8.8/", "allowed"],
    ["https://[2606:4700:4700::1111]:8443/x.png", "allowed"],
    ["http://example.com:080/a.png", "name: example.com"],
    ["https://images.example.com/a.png?sig=secret", "name: images.example.com"],
  ])("%s -> %s", (url, expected) => {
    expect(verdictOfUrl(url)).toBe(expected);
  });

  it("names scheme and host only, never the path or the query", () => {
    const check = checkUrl("https://user:pw@cdn.example.com:8443/private/a.png?token=secret#frag");
    expect(check).toEqual({
      ok: false,
      problem: "carries a user name or password, which media fetches never send",
    });
    const ok = checkUrl("https://cdn.example.com:8443/private/a.png?token=secret");
    expect(ok.ok && ok.target.origin).toBe("https://cdn.example.com:8443");
  });
});
