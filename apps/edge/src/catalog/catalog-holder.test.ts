import type { GetSnapshotRequest, GetSnapshotResponse } from "@gw/proto/catalog/v1/catalog";
import { describe, expect, it } from "vitest";
import { testEndpoint, testModel, testSnapshotResponse } from "../test/catalog.js";
import { CatalogHolder } from "./catalog-holder.js";

function source(versions: GetSnapshotResponse[]) {
  const requests: GetSnapshotRequest[] = [];
  let current = 0;
  let failing = false;
  return {
    requests,
    next: () => current++,
    fail: (value: boolean) => {
      failing = value;
    },
    fetch: async (request: GetSnapshotRequest): Promise<GetSnapshotResponse> => {
      requests.push(request);
      if (failing) throw new Error("keys unavailable");
      const snapshot = versions[Math.min(current, versions.length - 1)]!;
      if (request.knownVersion === snapshot.version)
        return { version: snapshot.version, notModified: true, providers: [], models: [] };
      return snapshot;
    },
  };
}

const v1 = testSnapshotResponse([testModel("a/one", [testEndpoint("demo")])], "v1");
const v2 = testSnapshotResponse(
  [testModel("a/one", [testEndpoint("demo")]), testModel("a/two", [testEndpoint("demo")])],
  "v2",
);

describe("CatalogHolder", () => {
  it("is unavailable (503) until the first snapshot loads", () => {
    const holder = new CatalogHolder(source([v1]).fetch);
    expect(holder.current()).toBeUndefined();
    expect(() => holder.require()).toThrow(
      expect.objectContaining({ status: 503, code: "catalog_unavailable" }),
    );
  });

  it("loads, then refreshes by version and swaps in a new snapshot only when it changed", async () => {
    const fake = source([v1, v2]);
    const holder = new CatalogHolder(fake.fetch);
    expect(await holder.refresh()).toBe(true);
    expect(holder.require().model("a/two")).toBeUndefined();
    expect(await holder.refresh()).toBe(false);
    fake.next();
    expect(await holder.refresh()).toBe(true);
    expect(holder.require().version).toBe("v2");
    expect(holder.require().model("a/two")?.id).toBe("a/two");
    expect(fake.requests.map((request) => request.knownVersion)).toEqual(["", "v1", "v1"]);
  });

  it("keeps the last good snapshot when a refresh fails and reports the error", async () => {
    const fake = source([v1]);
    const holder = new CatalogHolder(fake.fetch);
    await holder.refresh();
    fake.fail(true);
    expect(await holder.refresh()).toBe(false);
    expect(holder.require().version).toBe("v1");
    expect(holder.status()).toMatchObject({ loaded: true, version: "v1", lastError: "keys unavailable" });
  });

  it("refreshes in the background after start and stops cleanly", async () => {
    const fake = source([v1, v2]);
    const holder = new CatalogHolder(fake.fetch, { refreshMs: 10 });
    await holder.start();
    fake.next();
    await expect.poll(() => holder.current()?.version, { timeout: 5_000 }).toBe("v2");
    await holder.stop();
    const calls = fake.requests.length;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fake.requests.length).toBe(calls);
  });
});

describe("a price change and a request already admitted", () => {
  it("leaves the admitted request's endpoint (and its price) as it was when a new snapshot is installed", async () => {
    const cheap = testSnapshotResponse([testModel("a/one", [testEndpoint("demo", { prompt: "1" })])], "v1");
    const dear = testSnapshotResponse([testModel("a/one", [testEndpoint("demo", { prompt: "9" })])], "v2");
    const upstream = source([cheap, dear]);
    const holder = new CatalogHolder(upstream.fetch);
    await holder.refresh();
    // What the planner keeps for a request it admitted: the endpoint object of the snapshot it read.
    const admitted = holder.require().model("a/one")?.endpoints[0];
    upstream.next();
    expect(await holder.refresh()).toBe(true);
    expect(holder.require().model("a/one")?.endpoints[0]?.pricing?.promptPico).toBe(9_000_000n);
    expect(admitted?.pricing?.promptPico).toBe(1_000_000n);
  });
});
