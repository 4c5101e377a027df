import { afterEach, describe, expect, it } from "vitest";
import { serveDns, type TestNameServer } from "../test/dns-server.js";
import { type RecordingServer, serveHttp } from "../test/media-servers.js";
import { dnsResolver } from "./dns.js";
import { createGuardedFetcher, GuardedFetchRefused } from "./guarded-fetch.js";

// The default resolver against a real (local) name server: A and AAAA over UDP, no getaddrinfo.

const opened: (TestNameServer | RecordingServer)[] = [];

afterEach(async () => {
  await Promise.all(opened.splice(0).map((server) => server.close()));
});

async function nameServer(table: Record<string, string[]>, silent: string[] = []): Promise<TestNameServer> {
  const server = await serveDns(table, silent);
  opened.push(server);
  return server;
}

describe("dnsResolver", () => {
  it("answers every A then every AAAA record of a name, asking both types, without a trailing dot", async () => {
    const dns = await nameServer({ "both.test": ["192.0.2.7", "2001:db8::7", "198.51.100.9"] });
    const resolve = dnsResolver({ servers: [dns.address] });
    expect(await resolve("both.test.")).toEqual([
      { address: "192.0.2.7", family: 4 },
      { address: "198.51.100.9", family: 4 },
      { address: "2001:db8::7", family: 6 },
    ]);
    expect([...dns.asked].sort()).toEqual(["both.test A", "both.test AAAA"]);
  });

  it("answers one family when the name has only that one, and throws for a name that does not exist", async () => {
    const dns = await nameServer({ "v6.test": ["2001:db8::1"] });
    const resolve = dnsResolver({ servers: [dns.address] });
    expect(await resolve("v6.test")).toEqual([{ address: "2001:db8::1", family: 6 }]);
    await expect(resolve("nx.test")).rejects.toMatchObject({ code: "ENOTFOUND" });
  });
});

describe("the guarded fetcher on the default resolver", () => {
  it("fetches from the address the name server gave, and refuses a name with a private answer among them", async () => {
    const dns = await nameServer({ "cdn.test": ["127.0.0.1"], "mixed.test": ["127.0.0.1", "::1"] });
    const server = await serveHttp((_request, response) => {
      response.writeHead(200, { "content-type": "image/png" });
      response.end("png");
    });
    opened.push(server);
    const guarded = createGuardedFetcher({
      maxBytes: 1024,
      timeoutMs: 3_000,
      maxRedirects: 0,
      resolve: dnsResolver({ servers: [dns.address] }),
      allowAddresses: (address) => address === "127.0.0.1",
    });
    const media = await guarded(`http://cdn.test:${server.port}/a.png`, ["image/png"]);
    expect(Buffer.from(media.bytes).toString()).toBe("png");
    const refused = await guarded(`http://mixed.test:${server.port}/a.png`, ["image/png"]).catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(GuardedFetchRefused);
    expect((refused as GuardedFetchRefused).reason).toBe(
      "the host mixed.test resolves to a loopback address, which media fetches may not reach",
    );
    expect(server.requests).toHaveLength(1);
  });

  it("gives up on a name server that never answers within the fetch's time cap", async () => {
    const dns = await nameServer({}, ["slow.test"]);
    const guarded = createGuardedFetcher({
      maxBytes: 1024,
      timeoutMs: 300,
      maxRedirects: 0,
      resolve: dnsResolver({ servers: [dns.address], queryTimeoutMs: 5_000 }),
    });
    const started = performance.now();
    const refused = await guarded("http://slow.test/a.png", ["image/png"]).catch((error: unknown) => error);
    expect((refused as GuardedFetchRefused).reason).toBe(
      "the fetch of http://slow.test did not finish within 300 ms",
    );
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
