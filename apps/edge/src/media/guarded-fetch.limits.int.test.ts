import type { Socket } from "node:net";
import { memoryLogger } from "@gw/logger";
import { afterEach, describe, expect, it } from "vitest";
import { type RecordingServer, serveHttp, serveRaw, stream } from "../test/media-servers.js";
import { createGuardedFetcher, type GuardedFetchOptions, GuardedFetchRefused } from "./guarded-fetch.js";

// The hostile suite's second half: servers that answer, but with too much, too slowly, the wrong
// thing, or a Content-Length that lies. The fetch must stop at its caps and say which one.

const CAP = 64 * 1024;
const IMAGES = ["image/png", "image/jpeg"] as const;
const servers: RecordingServer[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function track<T extends RecordingServer>(server: Promise<T>): Promise<T> {
  const started = await server;
  servers.push(started);
  return started;
}

function fetcher(overrides: Partial<GuardedFetchOptions> = {}) {
  return createGuardedFetcher({
    maxBytes: CAP,
    timeoutMs: 2_000,
    maxRedirects: 3,
    allowAddresses: (address) => address === "127.0.0.1",
    ...overrides,
  });
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(GuardedFetchRefused);
  return (error as GuardedFetchRefused).reason;
}

/** A raw HTTP answer: the head as given, then `body`; the connection left open unless `close`. */
function rawAnswer(head: string, body: Buffer | string, close = true): (socket: Socket) => void {
  return (socket) => {
    socket.once("data", () => {
      socket.write(`${head}\r\n\r\n`);
      socket.write(body);
      if (close) socket.end();
    });
  };
}

describe("guarded fetch: the size cap", () => {
  it("takes a body of exactly the cap", async () => {
    const server = await track(
      serveHttp((_request, response) => {
        response.writeHead(200, { "content-type": "image/png" });
        stream(response, CAP);
      }),
    );
    expect((await fetcher()(`${server.origin}/a.png`, IMAGES)).bytes.length).toBe(CAP);
  });

  it("refuses an empty body: no media at all", async () => {
    const server = await track(
      serveHttp((_request, response) => {
        response.writeHead(200, { "content-type": "image/png", "content-length": 0 });
        response.end();
      }),
    );
    expect(await refusal(fetcher()(`${server.origin}/empty.png`, IMAGES))).toBe(
      `${server.origin} sent an empty body`,
    );
  });

  it("refuses a declared Content-Length over the cap before reading the body", async () => {
    let sent = { written: () => 0 };
    const server = await track(
      serveHttp((_request, response) => {
        response.writeHead(200, { "content-type": "image/png", "content-length": 50 * 1024 * 1024 });
        sent = stream(response, 50 * 1024 * 1024);
      }),
    );
    expect(await refusal(fetcher()(`${server.origin}/big.png`, IMAGES))).toBe(
      `${server.origin} declared a 52428800-byte body, more than the ${CAP}-byte limit`,
    );
    expect(sent.written()).toBeLessThan(10 * 1024 * 1024);
  });

  it("cuts a body with no Content-Length (chunked) at the cap, and stops reading it", async () => {
    let sent = { written: () => 0 };
    const server = await track(
      serveHttp((_request, response) => {
        response.writeHead(200, { "content-type": "image/png" });
        sent = stream(response, 50 * 1024 * 1024);
      }),
    );
    expect(await refusal(fetcher()(`${server.origin}/big.png`, IMAGES))).toBe(
      `${server.origin} sent more than the ${CAP}-byte limit`,
    );
    await new Promise((done) => setTimeout(done, 50));
    expect(sent.written()).toBeLessThan(10 * 1024 * 1024);
  });

  it("cuts a body delimited by the connection's close (no length, no chunks) at the cap", async () => {
    const server = await track(
      serveRaw(
        rawAnswer("HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nConnection: close", Buffer.alloc(CAP * 4)),
      ),
    );
    expect(await refusal(fetcher()(`${server.origin}/a.png`, IMAGES))).toBe(
      `${server.origin} sent more than the ${CAP}-byte limit`,
    );
  });

  it("never reads past a Content-Length that understates the body (the rest is not taken as body)", async () => {
    const server = await track(
      serveRaw(
        rawAnswer(
          "HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: 10",
          Buffer.alloc(CAP * 4, 1),
        ),
      ),
    );
    const outcome = await fetcher()(`${server.origin}/a.png`, IMAGES).then(
      (media) => media.bytes.length,
      (error: unknown) => (error as GuardedFetchRefused).reason,
    );
    // Node's parser frames the body by the header: 10 bytes, never the 256 KiB that followed.
    expect(outcome).toBe(10);
  });

  it("refuses a Content-Length that overstates the body (the connection closes first)", async () => {
    const server = await track(
      serveRaw(rawAnswer("HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: 1000", "short")),
    );
    expect(await refusal(fetcher()(`${server.origin}/a.png`, IMAGES))).toBe(
      `${server.origin} closed the connection before the body was complete`,
    );
  });

  it("refuses a small Content-Length sent with chunked framing (a smuggling shape)", async () => {
    const body = `${(CAP * 2).toString(16)}\r\n${"a".repeat(CAP * 2)}\r\n0\r\n\r\n`;
    const head =
      "HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: 10\r\nTransfer-Encoding: chunked";
    const server = await track(serveRaw(rawAnswer(head, body)));
    expect(await refusal(fetcher()(`${server.origin}/a.png`, IMAGES))).toMatch(
      new RegExp(`^${server.origin} sent a malformed HTTP response \\(HPE_`),
    );
  });

  it("refuses a Content-Length that is not a number", async () => {
    const server = await track(
      serveRaw(
        rawAnswer(
          "HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: 10, 999999999",
          "0123456789",
        ),
      ),
    );
    expect(await refusal(fetcher()(`${server.origin}/a.png`, IMAGES))).toMatch(
      /sent a malformed HTTP response/,
    );
  });
});

describe("guarded fetch: the time cap covers the whole fetch", () => {
  it("refuses a body that trickles past the cap (slow loris), on time", async () => {
    const server = await track(
      serveHttp((_request, response) => {
        response.writeHead(200, { "content-type": "image/png" });
        const timer = setInterval(() => response.write("x"), 20);
        response.on("close", () => clearInterval(timer));
      }),
    );
    const started = performance.now();
    expect(await refusal(fetcher({ timeoutMs: 300 })(`${server.origin}/slow.png`, IMAGES))).toBe(
      `the fetch of ${server.origin} did not finish within 300 ms`,
    );
    expect(performance.now() - started).toBeLessThan(1_500);
  });

  it("refuses a server that accepts the connection and never answers", async () => {
    const server = await track(serveRaw(() => {}));
    expect(await refusal(fetcher({ timeoutMs: 200 })(`${server.origin}/a.png`, IMAGES))).toBe(
      `the fetch of ${server.origin} did not finish within 200 ms`,
    );
  });

  it("counts resolution and every redirect against the same cap", async () => {
    const never = fetcher({ timeoutMs: 200, resolve: () => new Promise(() => {}) });
    expect(await refusal(never("http://slow-dns.test/a.png", IMAGES))).toBe(
      "the fetch of http://slow-dns.test did not finish within 200 ms",
    );
    const server = await track(
      serveHttp((request, response) => {
        // Each hop takes 120 ms: any one is inside 300 ms, the three together are not.
        setTimeout(() => {
          const left = Number(request.url?.slice(1));
          response.writeHead(left > 0 ? 302 : 200, { location: `/${left - 1}`, "content-type": "image/png" });
          response.end("x");
        }, 120);
      }),
    );
    expect(await refusal(fetcher({ timeoutMs: 300 })(`${server.origin}/2`, IMAGES))).toBe(
      `the fetch of ${server.origin} did not finish within 300 ms`,
    );
  });
});

describe("guarded fetch: the answer must be the media the target takes", () => {
  function answering(status: number, headers: Record<string, string>) {
    return serveHttp((_request, response) => {
      response.writeHead(status, headers);
      response.end("body");
    });
  }

  it.each([
    [
      200,
      { "content-type": "text/html; charset=utf-8" },
      'answered with content type "text/html", not one of image/png, image/jpeg',
    ],
    [
      200,
      { "content-type": "image/png, text/html" },
      'answered with content type "image/png, text/html", not one of',
    ],
    [200, {}, "answered without a content type (expected one of image/png, image/jpeg)"],
    [
      200,
      { "content-type": "image/png", "content-encoding": "gzip" },
      "sent a gzip-encoded body, though only identity was accepted",
    ],
    [404, { "content-type": "image/png" }, "answered HTTP 404, not 200"],
    [206, { "content-type": "image/png" }, "answered HTTP 206, not 200"],
    [500, { "content-type": "text/plain" }, "answered HTTP 500, not 200"],
  ])("refuses HTTP %i %j", async (status, headers, problem) => {
    const server = await track(answering(status, headers));
    const reason = await refusal(fetcher()(`${server.origin}/a.png`, IMAGES));
    expect(reason.startsWith(`${server.origin} ${problem}`), reason).toBe(true);
  });

  it("takes a type in any case, with parameters, and a whole type by `type/*`", async () => {
    const upper = await track(answering(200, { "content-type": "IMAGE/JPEG; quality=high" }));
    expect((await fetcher()(`${upper.origin}/a.jpg`, IMAGES)).contentType).toBe("image/jpeg");
    const webp = await track(answering(200, { "content-type": "image/webp" }));
    expect((await fetcher()(`${webp.origin}/a.webp`, ["image/*"])).contentType).toBe("image/webp");
    expect(await refusal(fetcher()(`${webp.origin}/a.webp`, ["application/pdf"]))).toContain(
      'answered with content type "image/webp", not one of application/pdf',
    );
  });

  it("names a connection refused by the server", async () => {
    const server = await track(serveHttp(() => {}));
    await server.close();
    expect(await refusal(fetcher()(`${server.origin}/a.png`, IMAGES))).toBe(
      `${server.origin} refused the connection`,
    );
  });
});

describe("guarded fetch: logs and reasons name scheme and host only", () => {
  it("never writes a URL's path or query (which may carry credentials) to a log line or a reason", async () => {
    const { logger, lines } = memoryLogger("debug");
    const server = await track(
      serveHttp((request, response) => {
        if (request.url?.startsWith("/ok")) {
          response.writeHead(200, { "content-type": "image/png" });
          return void response.end("x");
        }
        response.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/?token=hunter2" });
        response.end();
      }),
    );
    const guarded = fetcher({ logger });
    await guarded(`${server.origin}/ok/private.png?X-Amz-Signature=hunter2`, IMAGES);
    const reason = await refusal(
      guarded(`${server.origin}/redirect/private.png?X-Amz-Signature=hunter2`, IMAGES),
    );
    const written = lines().join("\n");
    expect(lines()).toHaveLength(2);
    expect(written).toContain(server.origin);
    expect(`${written}\n${reason}`).not.toMatch(/hunter2|private\.png|meta-data|Signature/);
  });
});
