import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { loadBillingConfig } from "@gw/billing";
import { declaredVariables, type Env } from "@gw/config";
import { loadEdgeConfig } from "@gw/edge";
import { loadGenerationsConfig } from "@gw/generations";
import { loadKeysConfig } from "@gw/keys";
import { loadStandaloneConfig } from "@gw/standalone";
import { repoRoot } from "@gw/testing";

// Which environment variables each app really reads: the names its config loader declares plus its
// direct `env.X` reads. Shared by the README test (the configuration table) and the deployment test
// (what the manifests and docker-compose.yml set).

const root = repoRoot();

export type Reader = "edge" | "keys" | "billing" | "generations" | "standalone" | "cli";
export const SPLIT_APPS: readonly Reader[] = ["edge", "keys", "billing", "generations"];

/** Enough for every app's required variables, so each loader runs to its end. */
export const BASE_ENV: Env = {
  DATABASE_URL: "postgres://user@127.0.0.1:5432/db",
  REDIS_URL: "redis://127.0.0.1:6379",
  KEYS_GRPC_ADDRESS: "127.0.0.1:50051",
  BILLING_GRPC_ADDRESS: "127.0.0.1:50052",
  KEYS_HTTP_URL: "http://127.0.0.1:8081",
  BILLING_HTTP_URL: "http://127.0.0.1:8082",
  GENERATIONS_HTTP_URL: "http://127.0.0.1:8083",
};

/** Variables of the platform rather than of the gateway. */
export const NOT_OURS = new Set(["NODE_ENV"]);

/** Read by an app through a shared helper without meaning anything to it (listed for its real user). */
export const READ_IN_PASSING: Record<string, Reader> = {
  // walletTokensFromEnv reads the lifetime with the secret everywhere; only keys signs tokens.
  WALLET_JWT_TTL_S: "keys",
};

/** What a loader reads: the names its loadConfig shapes declare plus every direct `env.X` access. */
function variablesOf(load: (env: Env) => unknown): Set<string> {
  const accessed = new Set<string>();
  const env = new Proxy(
    { ...BASE_ENV },
    {
      get(target, name) {
        if (typeof name === "string") accessed.add(name);
        return typeof name === "string" ? target[name] : undefined;
      },
    },
  );
  const declared = declaredVariables(() => load(env));
  // loadConfig enumerates the whole environment (BASE_ENV's names with it): only reads by name count.
  const direct = [...accessed].filter((name) => !(name in BASE_ENV));
  return new Set([...declared, ...direct].filter((name) => /^[A-Z][A-Z0-9_]+$/.test(name)));
}

/** The operator CLI reads its few variables directly (`env.X`): found in its source. */
function cliVariables(): Set<string> {
  const folder = join(root, "apps/standalone/src/cli");
  const files = [
    ...readdirSync(folder)
      .filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts"))
      .map((name) => join(folder, name)),
    join(root, "apps/standalone/src/data-dir.ts"),
  ];
  const names = new Set<string>();
  for (const file of files)
    for (const match of readFileSync(file, "utf8").matchAll(/\benv\.([A-Z][A-Z0-9_]+)/g))
      names.add(match[1] as string);
  return names;
}

/** Packages' functions that read the environment themselves, and the files that do it. */
const ENV_HELPERS: Record<string, readonly string[]> = {
  walletTokensFromEnv: ["packages/auth/src/wallet-config.ts"],
  startTracingFromEnv: ["packages/telemetry/src/setup.ts"],
  // The control-plane skeleton's process (@gw/service) starts tracing and verifies wallet JWTs.
  openControlPlane: ["packages/telemetry/src/setup.ts", "packages/auth/src/wallet-config.ts"],
};

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === "test" ? [] : sourceFiles(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

function directReads(text: string): string[] {
  return [...text.matchAll(/\benv\.([A-Z][A-Z0-9_]+)/g)].map((match) => match[1] as string);
}

/**
 * What an app reads outside its config loader: `env.X` in its own source (its main.ts, say) and in
 * the package helpers it calls (walletTokensFromEnv reads the wallet variables).
 */
function sourceVariables(app: string): Set<string> {
  const text = sourceFiles(join(root, "apps", app, "src"))
    .filter((file) => !file.includes(`${join("src", "cli")}`))
    .map((file) => readFileSync(file, "utf8"))
    .join("\n");
  const helpers = Object.entries(ENV_HELPERS)
    // A call, with or without type arguments: `openControlPlane<KeysTables>(`.
    .filter(([name]) => new RegExp(`\\b${name}[<(]`).test(text))
    .flatMap(([, files]) => files.map((file) => readFileSync(join(root, file), "utf8")));
  return new Set([text, ...helpers].flatMap(directReads));
}

const union = (...sets: Set<string>[]): Set<string> => new Set(sets.flatMap((set) => [...set]));

export const READS: Record<Reader, Set<string>> = {
  edge: union(variablesOf(loadEdgeConfig), sourceVariables("edge")),
  keys: union(variablesOf(loadKeysConfig), sourceVariables("keys")),
  billing: union(variablesOf(loadBillingConfig), sourceVariables("billing")),
  generations: union(variablesOf(loadGenerationsConfig), sourceVariables("generations")),
  standalone: union(variablesOf(loadStandaloneConfig), sourceVariables("standalone")),
  cli: cliVariables(),
};
