import { describe, expect, it } from "vitest";
import { FRAMES_BESIDE_CONTENT, streamFrames } from "../upstream/responses.js";
import { extraEnv } from "./edge.js";
import { nginxConfig } from "./nginx.js";
import { chatBody } from "./target.js";

describe("prompt sizes", () => {
  it("pads the prompt until the whole body is the size asked for, valid JSON", () => {
    for (const bytes of [8 * 1024, 64 * 1024]) {
      const body = chatBody("openai/gpt-4o-mini", false, bytes);
      expect(Buffer.byteLength(body)).toBe(bytes);
      const parsed = JSON.parse(body) as { messages: Array<{ content: string }> };
      expect(parsed.messages[0]?.content.startsWith("Say hello to the bench lorem")).toBe(true);
    }
    expect(chatBody("m", true)).toBe(chatBody("m", true, 10));
  });
});

describe("frames per stream", () => {
  it("counts the role, finish, usage and [DONE] frames beside the content", () => {
    expect(streamFrames("m", 20)).toHaveLength(20 + FRAMES_BESIDE_CONTENT);
  });
});

describe("BENCH_EDGE_ENV", () => {
  it("reads NAME=value pairs separated by spaces, values may hold '='", () => {
    expect(extraEnv(" KAFKA_LINGER_MS=0  X=a=b junk ")).toEqual({ KAFKA_LINGER_MS: "0", X: "a=b" });
    expect(extraEnv(undefined)).toEqual({});
  });
});

describe("the nginx anchor's config", () => {
  it("proxies to the upstream with keep-alive, no buffering, one worker, everything under its dir", () => {
    const config = nginxConfig("/tmp/x", 8080, new URL("http://127.0.0.1:9000"), undefined);
    expect(config).toContain("upstream fake { server 127.0.0.1:9000; keepalive 512;");
    expect(config).toContain("listen 127.0.0.1:8080;");
    expect(config).toContain("proxy_buffering off;");
    expect(config).toContain('proxy_set_header Connection "";');
    expect(config).toContain("worker_processes 1;");
    expect(config).not.toContain("user ");
    expect(config.match(/_path (\S+);/g)?.every((line) => line.includes("/tmp/x/"))).toBe(true);
    expect(nginxConfig("/tmp/x", 1, new URL("http://127.0.0.1:2"), "root")).toMatch(/^user root;\n/);
  });
});
