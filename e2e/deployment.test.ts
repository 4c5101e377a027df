import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { loadBillingConfig } from "@gw/billing";
import type { Env } from "@gw/config";
import { loadEdgeConfig } from "@gw/edge";
import { loadGenerationsConfig } from "@gw/generations";
import { loadKeysConfig } from "@gw/keys";
import { repoRoot } from "@gw/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { BASE_ENV, READS } from "./config-readers.js";
import { type Manifest, overlayDir, render } from "./kustomize.js";
import { type AppName, servedGetPaths } from "./served-routes.js";

// The deployment files against the apps themselves: every variable the Kubernetes manifests (each
// overlay, rendered) and docker-compose.yml set is one the app's configuration reads, every probe path
// is a route the app's router serves, every port is the one the app's configuration listens on, and
// every address one app is given reaches the other app's port of the right kind. Plus what the
// Dockerfile must get right for the images to run.

const root = repoRoot();
const APPS: readonly AppName[] = ["edge", "keys", "billing", "generations"];
const LOADERS: Record<AppName, (env: Env) => { http: number; grpc?: number }> = {
  edge: (env) => ({ http: loadEdgeConfig(env).httpPort }),
  keys: (env) => portsOf(loadKeysConfig(env)),
  billing: (env) => portsOf(loadBillingConfig(env)),
  generations: (env) => portsOf(loadGenerationsConfig(env)),
};
/** Variables the edge needs to start (its control-plane addresses), so its loader runs to the end. */
const EDGE_ENV: Env = {
  KEYS_HTTP_URL: "http://keys:8081",
  BILLING_HTTP_URL: "http://billing:8082",
  GENERATIONS_HTTP_URL: "http://generations:8083",
};

/**
 * Required by every app's main.js whatever its config schema says: service authentication, and the
 * wallet JWT secret under NODE_ENV=production, which the image sets (walletTokensFromEnv refuses to
 * start without it there).
 */
const PRODUCTION_REQUIRED = ["SERVICE_AUTH_PRIVATE_KEY", "SERVICE_AUTH_PUBLIC_KEYS", "WALLET_JWT_SECRET"];

function portsOf(config: { HTTP_PORT: number; GRPC_PORT: number }) {
  return { http: config.HTTP_PORT, grpc: config.GRPC_PORT };
}

/** What the app would listen on given these variables (the rest at their defaults). */
function appPorts(app: AppName, env: Env): { http: number; grpc?: number } {
  return LOADERS[app]({ ...BASE_ENV, ...EDGE_ENV, ...env });
}

let served: Record<AppName, Set<string>>;
beforeAll(async () => {
  served = await servedGetPaths();
});

it("the route reader sees each app's health routes (so the probe checks below can pass or fail)", () => {
  for (const app of APPS)
    expect([...served[app]], app).toEqual(expect.arrayContaining(["/healthz", "/readyz"]));
  expect(served.keys.has("/openapi.json")).toBe(false);
});

// ---------------------------------------------------------------------------------------------------
// Kubernetes

type Json = Record<string, unknown>;
interface Container {
  name: string;
  image: string;
  env?: { name: string; value?: string }[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  ports?: { name: string; containerPort: number }[];
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  startupProbe?: Probe;
  resources?: { requests?: Json; limits?: Json };
  lifecycle?: { preStop?: { exec?: { command: string[] }; sleep?: { seconds: number } } };
}
interface Probe {
  httpGet?: { path: string; port: string | number };
  tcpSocket?: { port: string | number };
}
interface PodSpec {
  containers: Container[];
  initContainers?: Container[];
}

function appOf(container: Container): AppName {
  const name = /^model-gateway\/([a-z]+):/.exec(container.image)?.[1];
  if (!name || !APPS.includes(name as AppName)) throw new Error(`image ${container.image} is no app's`);
  return name as AppName;
}

function podSpec(manifest: Manifest): PodSpec | undefined {
  if (manifest.kind !== "Deployment" && manifest.kind !== "Job") return undefined;
  return ((manifest.spec as Json).template as Json).spec as PodSpec;
}

class Rendered {
  constructor(readonly manifests: Manifest[]) {}

  find(kind: string, name: string): Manifest | undefined {
    return this.manifests.find((m) => m.kind === kind && m.metadata.name === name);
  }

  /** A ConfigMap's or Secret's variables, values as given (Secrets are empty in git). */
  source(kind: "ConfigMap" | "Secret", name: string): Record<string, string> {
    const manifest = this.find(kind, name);
    if (!manifest) throw new Error(`${kind} ${name} is referenced but not in the render`);
    return (manifest.data ?? manifest.stringData ?? {}) as Record<string, string>;
  }

  /** Every variable a container gets, with the literal value where there is one. */
  envOf(container: Container): { names: string[]; plain: Env } {
    const names: string[] = [];
    const plain: Env = {};
    for (const from of container.envFrom ?? []) {
      const [kind, name] = from.configMapRef
        ? (["ConfigMap", from.configMapRef.name] as const)
        : (["Secret", from.secretRef?.name ?? ""] as const);
      for (const [key, value] of Object.entries(this.source(kind, name))) {
        names.push(key);
        if (kind === "ConfigMap" && value !== "") plain[key] = value;
      }
    }
    for (const variable of container.env ?? []) {
      names.push(variable.name);
      if (variable.value !== undefined) plain[variable.name] = variable.value;
    }
    return { names, plain };
  }

  containers(): { manifest: Manifest; container: Container; app: AppName }[] {
    return this.manifests.flatMap((manifest) => {
      const spec = podSpec(manifest);
      if (!spec) return [];
      return [...(spec.initContainers ?? []), ...spec.containers].map((container) => ({
        manifest,
        container,
        app: appOf(container),
      }));
    });
  }

  deployment(app: AppName): Container {
    const container = podSpec(this.find("Deployment", app) as Manifest)?.containers[0];
    if (!container) throw new Error(`no Deployment ${app}`);
    return container;
  }
}

describe.each(["staging", "production"])("Kubernetes manifests, overlay %s", (overlay) => {
  const rendered = new Rendered(render(overlayDir(root, overlay)));

  it("render every app's Deployment, Service and PodDisruptionBudget, the edge's HPA and the migration Job", () => {
    for (const app of APPS)
      for (const kind of ["Deployment", "Service", "PodDisruptionBudget"])
        expect(rendered.find(kind, app), `${kind} ${app}`).toBeDefined();
    const hpa = rendered.find("HorizontalPodAutoscaler", "edge");
    expect(hpa).toBeDefined();
    expect((hpa?.spec as Json | undefined)?.scaleTargetRef).toMatchObject({
      kind: "Deployment",
      name: "edge",
    });
    const job = rendered.find("Job", "migrate");
    const migrated = rendered.containers().filter((c) => c.manifest === job);
    expect(migrated.map((c) => c.app).sort()).toEqual(["billing", "generations", "keys"]);
    expect(migrated.every((c) => existsSync(join(root, "apps", c.app, "src/migrate.ts")))).toBe(true);
    for (const manifest of rendered.manifests) expect(manifest.metadata.namespace).toBeTruthy();
  });

  it("set only variables each app's configuration reads", () => {
    const strays = rendered.containers().flatMap(({ container, app }) =>
      rendered
        .envOf(container)
        .names.filter((name) => !READS[app].has(name))
        .map((name) => `${app}: ${name}`),
    );
    expect(strays).toEqual([]);
  });

  it("give each app the variables it cannot start without, and values its configuration accepts", () => {
    for (const app of APPS) {
      const { names, plain } = rendered.envOf(rendered.deployment(app));
      const required = Object.keys(BASE_ENV).filter((name) => READS[app].has(name));
      for (const name of [...required, ...PRODUCTION_REQUIRED.filter((n) => READS[app].has(n))])
        expect(names, `${app} ${name}`).toContain(name);
      expect(() => appPorts(app, plain), app).not.toThrow();
    }
  });

  it("name the ports each app listens on, and Services that reach them", () => {
    for (const app of APPS) {
      const container = rendered.deployment(app);
      const ports = appPorts(app, rendered.envOf(container).plain);
      const named = Object.fromEntries((container.ports ?? []).map((p) => [p.name, p.containerPort]));
      expect(named, app).toEqual(ports.grpc ? { http: ports.http, grpc: ports.grpc } : { http: ports.http });
      const service = rendered.find("Service", app)?.spec as {
        ports: { name: string; port: number; targetPort: string }[];
      };
      for (const port of service.ports) {
        expect(named[port.targetPort], `${app} Service ${port.name}`).toBeDefined();
        expect(port.port, `${app} Service ${port.name}`).toBe(named[port.targetPort]);
      }
    }
  });

  it("probe only paths the app serves, on its HTTP port, with resources set", () => {
    for (const app of APPS) {
      const container = rendered.deployment(app);
      const probes = [container.readinessProbe, container.livenessProbe, container.startupProbe];
      expect(container.readinessProbe?.httpGet, `${app} readiness`).toBeDefined();
      expect(container.livenessProbe, `${app} liveness`).toBeDefined();
      for (const probe of probes) {
        if (probe?.httpGet)
          expect(served[app].has(probe.httpGet.path), `${app} ${probe.httpGet.path}`).toBe(true);
        const port = probe?.httpGet?.port ?? probe?.tcpSocket?.port;
        if (probe) expect(port, app).toBe("http");
      }
      expect(container.resources?.requests, app).toMatchObject({
        cpu: expect.anything(),
        memory: expect.anything(),
      });
      expect(container.resources?.limits, app).toMatchObject({ memory: expect.anything() });
    }
  });

  it("probe readiness on /readyz and liveness on /healthz, and pause before SIGTERM inside the grace period", () => {
    for (const app of APPS) {
      const container = rendered.deployment(app);
      expect(container.readinessProbe?.httpGet?.path, app).toBe("/readyz");
      // Liveness never asks a dependency: a database outage must not restart every pod.
      expect(container.livenessProbe?.httpGet?.path, app).toBe("/healthz");
      const pause = container.lifecycle?.preStop?.exec?.command;
      expect(pause?.[0], app).toBe("sleep");
      const pod = podSpec(rendered.find("Deployment", app) as Manifest) as PodSpec & {
        terminationGracePeriodSeconds?: number;
      };
      const deadlineMs = Number(rendered.envOf(container).plain.SHUTDOWN_DEADLINE_MS ?? 20_000);
      // The pause, the drain and the event flush (10 s at most) fit before the kubelet's SIGKILL.
      expect(Number(pause?.[1]) + deadlineMs / 1000 + 10, app).toBeLessThanOrEqual(
        pod.terminationGracePeriodSeconds ?? 30,
      );
    }
  });

  it("point every address at another app's Service port of the right kind", () => {
    const problems: string[] = [];
    for (const { container, app } of rendered.containers()) {
      for (const [name, value] of Object.entries(rendered.envOf(container).plain)) {
        const target = addressTarget(name, value);
        if (!target) continue;
        const service = rendered.find("Service", target.host)?.spec as
          | { ports: { port: number; targetPort: string }[] }
          | undefined;
        const port = service?.ports.find((p) => p.port === target.port);
        if (port?.targetPort !== target.kind) problems.push(`${app} ${name}=${value}`);
      }
    }
    expect(problems).toEqual([]);
  });
});

/** `*_GRPC_ADDRESS` (host:port) and `*_HTTP_URL` values: which Service port they must reach. */
function addressTarget(name: string, value: string | undefined) {
  if (value === undefined) return undefined;
  if (name.endsWith("_GRPC_ADDRESS")) {
    const [host = "", port = ""] = value.split(":");
    return { host, port: Number(port), kind: "grpc" };
  }
  if (name.endsWith("_HTTP_URL")) {
    const url = new URL(value);
    return { host: url.hostname, port: Number(url.port), kind: "http" };
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------------
// docker-compose.yml

interface ComposeService {
  build?: { args?: { APP?: string } };
  environment?: Record<string, string | number>;
  ports?: string[];
}

describe("docker-compose.yml", () => {
  const compose = parse(readFileSync(join(root, "docker-compose.yml"), "utf8"), { merge: true }) as {
    services: Record<string, ComposeService>;
  };
  const apps = Object.entries(compose.services).flatMap(([service, definition]) => {
    const app = definition.build?.args?.APP as AppName | undefined;
    return app ? [{ service, app, env: definition.environment ?? {}, ports: definition.ports ?? [] }] : [];
  });
  const literal = (env: Record<string, string | number>): Env =>
    Object.fromEntries(
      Object.entries(env)
        .filter(([, value]) => !String(value).includes("${"))
        .map(([name, value]) => [name, String(value)]),
    );

  it("checks each app's /readyz on its own HTTP port, and starts the edge after the others are ready", () => {
    const raw = parse(readFileSync(join(root, "docker-compose.yml"), "utf8"), { merge: true }) as {
      services: Record<
        string,
        { healthcheck?: { test: string[] }; depends_on?: Record<string, { condition: string }> }
      >;
    };
    for (const { service, app, env } of apps) {
      const test = raw.services[service]?.healthcheck?.test.join(" ") ?? "";
      const path = /'(\/[a-z]+)'\)/.exec(test)?.[1] ?? "";
      expect(path, service).toBe("/readyz");
      expect(served[app].has(path), service).toBe(true);
      // The check reads the port from the environment: it must be the one the app listens on.
      expect(test, service).toContain("process.env.HTTP_PORT");
      expect(Number(env.HTTP_PORT), service).toBe(appPorts(app, literal(env)).http);
    }
    const edge = apps.find((a) => a.app === "edge")?.service ?? "";
    for (const { service, app } of apps.filter((a) => a.app !== "edge"))
      expect(raw.services[edge]?.depends_on?.[service], app).toEqual({ condition: "service_healthy" });
  });

  it("runs each of the four apps from the Dockerfile", () => {
    expect(apps.map((a) => a.app).sort()).toEqual(["billing", "edge", "generations", "keys"]);
  });

  it("sets only variables each app's configuration reads", () => {
    const strays = apps.flatMap(({ app, env }) =>
      Object.keys(env)
        .filter((name) => !READS[app].has(name))
        .map((name) => `${app}: ${name}`),
    );
    expect(strays).toEqual([]);
  });

  it("gives each app the variables its main.js cannot start without in the image", () => {
    for (const { app, env } of apps)
      for (const name of PRODUCTION_REQUIRED.filter((n) => READS[app].has(n)))
        expect(Object.keys(env), `${app} ${name}`).toContain(name);
  });

  it("points every address at the port the other app listens on, and publishes the edge's", () => {
    const listening = Object.fromEntries(
      apps.map(({ service, app, env }) => [service, appPorts(app, literal(env))]),
    );
    const problems: string[] = [];
    for (const { app, env } of apps) {
      for (const [name, value] of Object.entries(literal(env))) {
        const target = addressTarget(name, value);
        if (!target) continue;
        const ports = listening[target.host] as { http: number; grpc?: number } | undefined;
        if (ports?.[target.kind as "http" | "grpc"] !== target.port) problems.push(`${app} ${name}=${value}`);
      }
    }
    expect(problems).toEqual([]);
    const edge = apps.find((a) => a.app === "edge");
    const published = edge?.ports.map((mapping) => Number(String(mapping).split(":").at(-1)));
    expect(published).toEqual([listening[edge?.service ?? ""]?.http]);
  });
});

// ---------------------------------------------------------------------------------------------------
// infra/docker/Dockerfile

describe("infra/docker/Dockerfile", () => {
  const dockerfile = readFileSync(join(root, "infra/docker/Dockerfile"), "utf8");
  const runtime = dockerfile.split(/^FROM /m).at(-1) ?? "";

  it("installs the pnpm the workspace pins", () => {
    const pinned = (
      JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { packageManager: string }
    ).packageManager;
    expect(dockerfile).toContain(`npm install -g ${pinned}`);
  });

  it("starts a file every app builds (dist/main.js from src/main.ts)", () => {
    expect(runtime).toContain('CMD ["node", "dist/main.js"]');
    for (const app of APPS) expect(existsSync(join(root, "apps", app, "src/main.ts")), app).toBe(true);
  });

  it("runs the apps with NODE_ENV=production (what makes WALLET_JWT_SECRET required above)", () => {
    expect(runtime).toMatch(/^ENV NODE_ENV=production$/m);
  });

  it("runs as the unprivileged user with the default spool directory writable", () => {
    // EVENT_SPOOL_DIR defaults to .data/spool under the working directory; the image's files belong
    // to root, so the directory must be made and given to the user the process runs as.
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime).toMatch(/mkdir -p \/app\/\.data/);
    expect(runtime).toMatch(/chown[^\n]*node[^\n]*\/app\/\.data/);
  });

  it("ships the OpenAPI document the edge serves (pnpm deploy copies a package's files)", () => {
    const files = (
      JSON.parse(readFileSync(join(root, "packages/openapi/package.json"), "utf8")) as { files: string[] }
    ).files;
    expect(files).toContain("openapi.json");
  });
});
