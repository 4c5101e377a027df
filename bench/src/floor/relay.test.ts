import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BenchUpstream, startUpstream } from "../upstream/server.js";
import { type FloorRelay, startFloorRelay } from "./relay.js";

// The floor must do the relay's whole job (or its figures would bound nothing): the upstream's status,
// content type and bytes, streams included, and the caller's body and credential passed on.
describe("the node floor relay", () => {
  let upstream: BenchUpstream;
  let floor: FloorRelay;
  beforeAll(async () => {
    upstream = await startUpstream("127.0.0.1", 0);
    floor = await startFloorRelay("127.0.0.1", 0, upstream.url);
  });
  afterAll(async () => {
    await floor.close();
    await upstream.close();
  });

  const post = (base: string, body: unknown) =>
    fetch(`${base}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer sk-bench-upstream" },
      body: JSON.stringify(body),
    });

  it("answers with the upstream's own status, content type and bytes, for a completion and a stream", async () => {
    for (const stream of [false, true]) {
      const body = { model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }], stream };
      const direct = await post(upstream.url, body);
      const relayed = await post(floor.url, body);
      expect(relayed.status).toBe(direct.status);
      expect(relayed.headers.get("content-type")).toBe(direct.headers.get("content-type"));
      const [want, got] = await Promise.all([direct.text(), relayed.text()]);
      // Ids differ per answer; everything else is the upstream's bytes.
      const normal = (text: string) => text.replace(/"id":"[^"]*"/g, '"id":""').replace(/"created":\d+/g, "");
      expect(normal(got)).toBe(normal(want));
      expect(got.length).toBeGreaterThan(50);
    }
  });

  it("passes on the upstream's refusal as it is", async () => {
    const relayed = await post(floor.url, { nonsense: true });
    const direct = await post(upstream.url, { nonsense: true });
    expect(relayed.status).toBe(direct.status);
    expect(await relayed.text()).toBe(await direct.text());
  });
});
