import { registry } from "@gw/metrics";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ControlPlaneApp, FORWARDED_PATHS } from "./forwarded-paths.js";
import { type EdgeHarness, startEchoApp, startEdgeHarness } from "./test/harness.js";

type Echo = Awaited<ReturnType<typeof startEchoApp>>;

/** The edge's request count for a route label, as its HTTP metrics recorded it. */
async function countFor(route: string): Promise<{ surface: string; count: number }[]> {
  const metric = await registry.getSingleMetric("gw_http_requests_total")?.get();
  return (metric?.values ?? [])
    .filter((value) => value.labels.app === "edge" && value.labels.route === route)
    .map((value) => ({ surface: String(value.labels.surface), count: value.value }));
}

const forwarded = (Object.entries(FORWARDED_PATHS) as [ControlPlaneApp, readonly string[]][]).flatMap(
  ([app, prefixes]) => prefixes.map((prefix) => [prefix, app] as const),
);

describe("every forwarded prefix reaches its owner and is labelled in the edge's HTTP metrics", () => {
  let apps: Record<ControlPlaneApp, Echo>;
  let edge: EdgeHarness;

  beforeAll(async () => {
    const [keys, billing, generations] = await Promise.all(
      (["keys", "billing", "generations"] as const).map((name) => startEchoApp(name)),
    );
    apps = { keys: keys!, billing: billing!, generations: generations! };
    edge = await startEdgeHarness({
      keys: [],
      controlPlaneUrls: { keys: keys!.url, billing: billing!.url, generations: generations!.url },
    });
  });

  afterAll(async () => {
    await edge?.stop();
    await Promise.all(Object.values(apps ?? {}).map((app) => app.stop()));
  });

  it.each(forwarded)("%s → %s, labelled by its prefix", async (prefix, owner) => {
    for (const path of [prefix, `${prefix}/sub`]) {
      const response = await fetch(`${edge.url}${path}`);
      expect(response.headers.get("x-echo-app"), path).toBe(owner);
      await response.arrayBuffer();
    }
    // The count is taken when the response closes, a moment after the client has read it.
    await expect.poll(() => countFor(`${prefix}/*`)).toEqual([{ surface: "management", count: 2 }]);
  });
});
