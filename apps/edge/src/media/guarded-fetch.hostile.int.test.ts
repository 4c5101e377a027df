import { afterEach, describe, expect, it } from "vitest";
import { type RecordingServer, serveHttp, serveHttpsUntrusted } from "../test/media-servers.js";
import {
  createGuardedFetcher,
  type GuardedFetchOptions,
  GuardedFetchRefused,
  type ResolvedAddress,
} from "./guarded-fetch.js";

// The SSRF tricks a caller (or a server the caller points at) can play on a fetch made on its behalf,
// each against real local servers. The servers listen on 127.0.0.1, which the tests alone allow
// (allowAddresses); anything else on loopback (127.0.0.2, ::1) stands for what must stay unreachable,
// and records whether anything reached it.

const PNG = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
const IMAGES = ["image/png", "image/jpeg"] as const;
const servers: RecordingServer[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function track(server: Promise<RecordingServer>): Promise<RecordingServer> {
  const started = await server;
  servers.push(started);
  return started;
}

function image(): Parameters<typeof serveHttp>[0] {
  return (_request, response) => {
    response.writeHead(200, { "content-type": "image/png", "content-length": PNG.length });
    response.end(PNG);
  };
}

function redirectTo(location: string, status = 302): Parameters<typeof serveHttp>[0] {
  return (_request, response) => {
    response.writeHead(status, { location });
    response.end();
  };
}

/** A resolver from a table; a name it does not know fails like NXDOMAIN. */
function table(entries: Record<string, string[]>): (host: string) => Promise<ResolvedAddress[]> {
  return async (host) => {
    const addresses = entries[host];
    if (addresses === undefined)
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
    return addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
}

function fetcher(overrides: Partial<GuardedFetchOptions> = {}) {
  return createGuardedFetcher({
    maxBytes: 1024 * 1024,
    timeoutMs: 2_000,
    maxRedirects: 3,
    allowAddresses: (address) => address === "127.0.0.1",
    resolve: table({}),
    ...overrides,
  });
}

/** The refusal's reason; fails the test if the fetch succeeded or failed any other way. */
async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(GuardedFetchRefused);
  const refused = error as GuardedFetchRefused;
  expect(refused.message).toBe(refused.reason);
  return refused.reason;
}

describe("guarded fetch: what it fetches", () => {
  it("fetches an allowed URL byte-exact, sends no credentials or cookies, and names the bare content type", async () => {
    const server = await track(
      serveHttp((_request, response) => {
        response.writeHead(200, { "content-type": "image/png; charset=binary", "set-cookie": "session=1" });
        response.end(PNG);
      }),
    );
    const media = await fetcher({ resolve: table({ "cdn.test": ["127.0.0.1"] }) })(
      `http://cdn.test:${server.port}/a.png?sig=abc`,
      IMAGES,
    );
    expect(Buffer.from(media.bytes).equals(PNG)).toBe(true);
    expect(media.contentType).toBe("image/png");
    const [seen] = server.requests;
    expect(seen?.path).toBe("/a.png?sig=abc");
    expect(seen?.headers.host).toBe(`cdn.test:${server.port}`);
    expect(seen?.headers["accept-encoding"]).toBe("identity");
    expect(seen?.headers.accept).toBe("image/png, image/jpeg");
    expect(seen?.headers.cookie).toBeUndefined();
    expect(seen?.headers.authorization).toBeUndefined();
  });

  it("follows a relative redirect on an allowed host and sends no cookie the first answer set", async () => {
    const server = await track(
      serveHttp((request, response) => {
        if (request.url === "/start") {
          response.writeHead(302, { location: "/final.png", "set-cookie": "tracker=1; Path=/" });
          return void response.end();
        }
        image()(request, response);
      }),
    );
    const media = await fetcher()(`${server.origin}/start`, IMAGES);
    expect(Buffer.from(media.bytes).equals(PNG)).toBe(true);
    expect(server.requests.map((request) => request.path)).toEqual(["/start", "/final.png"]);
    expect(server.requests[1]?.headers.cookie).toBeUndefined();
  });
});

describe("guarded fetch: addresses, checked on every redirect", () => {
  it("refuses a redirect to another loopback address, and never connects to it", async () => {
    const inside = await track(serveHttp(image(), "127.0.0.2"));
    const outside = await track(serveHttp(redirectTo(`${inside.origin}/secret.png`)));
    const reason = await refusal(fetcher()(`${outside.origin}/a.png`, IMAGES));
    expect(reason).toBe(
      `the redirect to ${inside.origin} is a loopback address, which media fetches may not reach`,
    );
    expect(inside.requests).toEqual([]);
  });

  it.each([
    ["http://169.254.169.254/latest/meta-data/iam/", "is a cloud metadata address"],
    ["http://[fd00:ec2::254]/latest/", "is a cloud metadata address"],
    ["http://0xa9fea9fe/", "is a cloud metadata address"],
    ["http://[::1]:8080/", "is a loopback address"],
    ["http://[::ffff:127.0.0.2]/", "is an IPv4-mapped IPv6 form of a loopback address"],
    ["http://2130706434/", "is a loopback address"],
    ["http://0/", "is an unspecified address"],
    ["http://10.1.2.3/", "is a private-network address"],
    ["http://100.64.0.1/", "is a shared carrier-grade NAT address"],
    ["http://[fc00::1]/", "is a unique-local (private) IPv6 address"],
    ["http://internal.test/", "resolves to a private-network address"],
    ["http://localhost./", "names localhost., a loopback host"],
    ["file:///etc/passwd", 'uses the scheme "file:"'],
    ["gopher://127.0.0.1:70/_GET", 'uses the scheme "gopher:"'],
    ["http://cdn.test:25/", "uses port 25"],
    ["http://user:pass@cdn.test/", "carries a user name or password"],
  ])("refuses a redirect to %s (%s)", async (location, problem) => {
    const server = await track(serveHttp(redirectTo(location)));
    const resolve = table({
      "internal.test": ["10.0.0.5"],
      "localhost.": ["127.0.0.2"],
      "cdn.test": ["127.0.0.1"],
    });
    const reason = await refusal(fetcher({ resolve })(`${server.origin}/a.png`, IMAGES));
    expect(reason).toMatch(/^the redirect to /);
    expect(reason).toContain(problem);
    expect(server.requests).toHaveLength(1);
  });

  it("refuses a redirect whose Location is missing or not a URL, naming the origin", async () => {
    const bare = await track(serveHttp(redirectTo("http://[oops/")));
    expect(await refusal(fetcher()(`${bare.origin}/`, IMAGES))).toBe(
      `${bare.origin} redirected to a Location that is not a valid URL`,
    );
    const none = await track(
      serveHttp((_request, response) => {
        response.writeHead(307);
        response.end();
      }),
    );
    expect(await refusal(fetcher()(`${none.origin}/`, IMAGES))).toBe(
      `${none.origin} answered a 307 redirect without a Location`,
    );
  });

  it("follows at most maxRedirects redirects: a chain of 3 arrives, a chain of 4 is refused after 4 requests", async () => {
    const server = await track(
      serveHttp((request, response) => {
        const left = Number(request.url?.slice(1));
        if (left > 0) return redirectTo(`/${left - 1}`, 301)(request, response);
        image()(request, response);
      }),
    );
    const media = await fetcher()(`${server.origin}/3`, IMAGES);
    expect(media.bytes.length).toBe(PNG.length);
    server.requests.length = 0;
    const reason = await refusal(fetcher()(`${server.origin}/4`, IMAGES));
    expect(reason).toBe(`${server.origin} redirected more than 3 times, the limit for a media fetch`);
    expect(server.requests.map((request) => request.path)).toEqual(["/4", "/3", "/2", "/1"]);
  });

  it("refuses an endless redirect loop, and a redirect at all when maxRedirects is 0", async () => {
    const loop = await track(serveHttp(redirectTo("/again", 308)));
    expect(await refusal(fetcher()(`${loop.origin}/again`, IMAGES))).toContain(
      "redirected more than 3 times",
    );
    expect(loop.requests).toHaveLength(4);
    expect(await refusal(fetcher({ maxRedirects: 0 })(`${loop.origin}/again`, IMAGES))).toContain(
      "redirected more than 0 times",
    );
  });
});

describe("guarded fetch: DNS", () => {
  it("connects to the address it vetted, though the name answers a private address the next time it is asked (rebinding)", async () => {
    const vetted = await track(
      serveHttp((_request, response) => {
        response.writeHead(200, { "content-type": "image/png" });
        response.end("vetted");
      }),
    );
    const rebound = await track(
      serveHttp(
        (_request, response) => {
          response.writeHead(200, { "content-type": "image/png" });
          response.end("rebound");
        },
        "127.0.0.2",
        vetted.port,
      ),
    );
    const asked: string[] = [];
    const resolve = async (host: string): Promise<ResolvedAddress[]> => {
      asked.push(host);
      return [{ address: asked.length === 1 ? "127.0.0.1" : "127.0.0.2", family: 4 }];
    };
    const media = await fetcher({ resolve })(`http://rebind.test:${vetted.port}/a.png`, IMAGES);
    expect(Buffer.from(media.bytes).toString()).toBe("vetted");
    expect(asked).toEqual(["rebind.test"]);
    expect(rebound.requests).toEqual([]);
    expect(vetted.requests[0]?.headers.host).toBe(`rebind.test:${vetted.port}`);
  });

  it.each([
    [["127.0.0.1", "10.0.0.1"], "a private-network address"],
    [["10.0.0.1", "127.0.0.1"], "a private-network address"],
    [["127.0.0.1", "::ffff:169.254.169.254"], "an IPv4-mapped IPv6 form of a cloud metadata address"],
    [["127.0.0.1", "fe80::1%eth0"], "a link-local address"],
    [["127.0.0.1", "localhost"], "not an IP address"],
  ])("refuses a name whose answers include a refused one (%j), naming no address", async (answers, what) => {
    const server = await track(serveHttp(image()));
    const reason = await refusal(
      fetcher({ resolve: table({ "mixed.test": answers }) })(`http://mixed.test:${server.port}/`, IMAGES),
    );
    expect(reason).toBe(`the host mixed.test resolves to ${what}, which media fetches may not reach`);
    expect(server.requests).toEqual([]);
  });

  it("refuses a name that does not resolve, or resolves to nothing", async () => {
    expect(await refusal(fetcher()("http://nowhere.test/a.png", IMAGES))).toBe(
      "the host nowhere.test could not be resolved",
    );
    expect(
      await refusal(fetcher({ resolve: table({ "empty.test": [] }) })("http://empty.test/", IMAGES)),
    ).toBe("the host empty.test resolves to no address");
  });

  it("refuses localhost by name and a loopback literal without the test seams", async () => {
    const server = await track(serveHttp(image()));
    const guarded = createGuardedFetcher({ maxBytes: 1024, timeoutMs: 2_000, maxRedirects: 0 });
    expect(await refusal(guarded(`http://localhost:${server.port}/`, IMAGES))).toBe(
      "the media URL names localhost, a loopback host",
    );
    expect(await refusal(guarded(`${server.origin}/`, IMAGES))).toBe(
      `${server.origin} is a loopback address, which media fetches may not reach`,
    );
    expect(server.requests).toEqual([]);
  });
});

describe("guarded fetch: schemes, hosts, ports and credentials in the caller's URL", () => {
  it.each([
    ["file:///etc/passwd", 'the media URL uses the scheme "file:"; only http: and https: URLs are fetched'],
    [
      "gopher://127.0.0.1:6379/_FLUSHALL",
      'the media URL uses the scheme "gopher:"; only http: and https: URLs are fetched',
    ],
    ["ftp://cdn.test/a.png", 'the media URL uses the scheme "ftp:"; only http: and https: URLs are fetched'],
    [
      "data:image/png;base64,iVBORw0KGgo=",
      'the media URL uses the scheme "data:"; only http: and https: URLs are fetched',
    ],
    [
      "javascript:alert(1)",
      'the media URL uses the scheme "javascript:"; only http: and https: URLs are fetched',
    ],
    ["http://[fe80::1%25eth0]/a.png", "the media URL is not a valid absolute URL"],
    ["http://[fe80::1%eth0]/a.png", "the media URL is not a valid absolute URL"],
    ["not a url", "the media URL is not a valid absolute URL"],
    [
      "http://cdn.test:22/a.png",
      "the media URL uses port 22, a port the Fetch standard blocks (not a web port)",
    ],
    [
      "http://cdn.test:0/a.png",
      "the media URL uses port 0, a port the Fetch standard blocks (not a web port)",
    ],
    [
      "http://public@cdn.test/a.png",
      "the media URL carries a user name or password, which media fetches never send",
    ],
    ["http://[fe80::1]/a.png", "http://[fe80::1] is a link-local address, which media fetches may not reach"],
    ["http://0x7f.1/a.png", "http://127.0.0.1 is a loopback address, which media fetches may not reach"],
  ])("%s: %s", async (url, expected) => {
    let resolved = 0;
    const resolve = async () => {
      resolved++;
      return [{ address: "127.0.0.1", family: 4 as const }];
    };
    expect(await refusal(fetcher({ resolve, allowAddresses: () => false })(url, IMAGES))).toBe(expected);
    expect(resolved).toBe(0);
  });

  it("fetches from any port the Fetch standard does not block", async () => {
    const server = await track(serveHttp(image()));
    expect((await fetcher()(`${server.origin}/a.png`, IMAGES)).contentType).toBe("image/png");
  });
});

describe("guarded fetch: https", () => {
  it("sends the URL's host name as SNI to the pinned address, and refuses a certificate no CA signed", async () => {
    const server = await serveHttpsUntrusted();
    try {
      const reason = await refusal(
        fetcher({ resolve: table({ "cdn.test": ["127.0.0.1"] }) })(
          `https://cdn.test:${server.port}/a.png`,
          IMAGES,
        ),
      );
      expect(reason).toBe(
        `https://cdn.test:${server.port} could not be verified over TLS (DEPTH_ZERO_SELF_SIGNED_CERT)`,
      );
      expect(server.serverNames).toEqual(["cdn.test"]);
    } finally {
      await server.close();
    }
  });
});

describe("guarded fetch: the proxy variables are not honoured", () => {
  const names = ["HTTP_PROXY", "http_proxy", "HTTPS_PROXY", "https_proxy", "ALL_PROXY", "NO_PROXY"] as const;
  const saved = Object.fromEntries(names.map((name) => [name, process.env[name]]));

  afterEach(() => {
    for (const name of names) {
      const value = saved[name];
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it("connects straight to the vetted address while HTTP_PROXY and friends name a proxy", async () => {
    const proxy = await track(serveHttp(image()));
    const target = await track(serveHttp(image()));
    for (const name of names) process.env[name] = name === "NO_PROXY" ? "" : proxy.origin;
    await fetcher({ resolve: table({ "cdn.test": ["127.0.0.1"] }) })(
      `http://cdn.test:${target.port}/a.png`,
      IMAGES,
    );
    expect(proxy.requests).toEqual([]);
    expect(target.requests.map((request) => request.path)).toEqual(["/a.png"]);
  });
});
