import { repoRoot } from "@gw/testing";
import { describe, expect, it } from "vitest";
import { READS } from "./config-readers.js";
import { type Manifest, overlayDir, render } from "./kustomize.js";

// The manifests' metrics wiring against the apps: every app's pod sets METRICS_PORT (a variable its
// configuration reads), carries the Prometheus scrape annotations for exactly that port and /metrics,
// and no Service exposes the port (an ingress routes to Services: tenants never reach /metrics).

const root = repoRoot();
const APPS = ["edge", "keys", "billing", "generations"] as const;

type Json = Record<string, unknown>;
interface Container {
  name: string;
  env?: { name: string; value?: string }[];
  ports?: { name: string; containerPort: number }[];
}

function pod(manifest: Manifest): { annotations: Record<string, string>; containers: Container[] } {
  const template = (manifest.spec as Json).template as Json;
  return {
    annotations: ((template.metadata as Json | undefined)?.annotations ?? {}) as Record<string, string>,
    containers: (template.spec as Json).containers as Container[],
  };
}

describe.each(["staging", "production"])("metrics in the Kubernetes manifests, overlay %s", (overlay) => {
  const manifests = render(overlayDir(root, overlay));
  const find = (kind: string, name: string) =>
    manifests.find((manifest) => manifest.kind === kind && manifest.metadata.name === name);

  it.each(APPS)("%s: METRICS_PORT, read by the app, matches the scrape annotations", (app) => {
    const deployment = find("Deployment", app);
    if (!deployment) throw new Error(`no Deployment ${app}`);
    const { annotations, containers } = pod(deployment);
    const container = containers.find((candidate) => candidate.name === app);
    const metricsPort = container?.env?.find((variable) => variable.name === "METRICS_PORT")?.value;
    expect(READS[app].has("METRICS_PORT")).toBe(true);
    expect(Number(metricsPort)).toBeGreaterThan(0);
    expect(annotations).toMatchObject({
      "prometheus.io/scrape": "true",
      "prometheus.io/port": metricsPort,
      "prometheus.io/path": "/metrics",
    });
    // Apart from the ports the app serves its traffic on.
    for (const port of container?.ports ?? []) expect(port.containerPort).not.toBe(Number(metricsPort));
  });

  it.each(APPS)("%s: no Service exposes the metrics port", (app) => {
    const service = find("Service", app)?.spec as { ports: { port: number; targetPort: string | number }[] };
    const deployment = find("Deployment", app) as Manifest;
    const metricsPort = pod(deployment).annotations["prometheus.io/port"];
    for (const port of service.ports) {
      expect(String(port.port)).not.toBe(metricsPort);
      expect(String(port.targetPort)).not.toBe(metricsPort);
    }
  });
});
