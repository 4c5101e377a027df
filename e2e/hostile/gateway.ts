import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "@gw/db";
import { type FakeProviders, type FakeServer, startFakeProviders } from "@gw/fake-providers";
import { type AppProcess, eventually, startProcess, waitForHttp } from "../processes.js";
import type { Answer } from "./wire.js";

/** The credential the fake upstreams accept: the gateway's own provider key in these suites. */
export const UPSTREAM_KEY = `sk-upstream-${randomBytes(12).toString("hex")}`;

export type UpstreamName = "openai" | "anthropic" | "gemini";
export type UpstreamCounts = Record<UpstreamName, number>;

export interface HostileGateway {
  url: string;
  port: number;
  apiKey: string;
  managementKey: string;
  accountId: string;
  dataDir: string;
  byokMasterKey: string;
  upstreams: FakeProviders;
  process: AppProcess;
  /** How many requests the fake upstreams have received so far (a counter that clearing does not reset). */
  upstreamCalls(): number;
  /** The same, per fake upstream: the state an inference route's refusals must leave as it was. */
  upstreamCounts(): UpstreamCounts;
  /**
   * Whether `answer` is `provider`'s own refusal relayed by the gateway, judged on the fakes' side:
   * between the counts `before` and `after` that fake received exactly one request and no other fake
   * any, and the fake itself answered that request with a refusal of the status and message the caller
   * got. A refusal the gateway made after forwarding (whatever the fake answered) or a forward plus a
   * retry is not.
   */
  relayedRefusal(provider: UpstreamName, answer: Answer, before: unknown, after: unknown): boolean;
  /** Everything the gateway process printed, in full (the child helper keeps only a tail). */
  output(): string;
  stop(): Promise<void>;
}

/**
 * The embedded default as a process (one process, all four apps, embedded PostgreSQL in a fresh data
 * directory), with the OpenAI, Anthropic and Gemini fakes as its providers, so every surface and
 * management route is the production code path. The flood guard is raised far above the suites' rate:
 * a hostile-input suite tests the routes, not the guard, which has its own tests.
 */
export interface HostileGatewayOptions {
  env?: Record<string, string>;
  /** Provider keys the OpenAI fake accepts besides the gateway's own (an account's BYOK key). */
  byokKeys?: string[];
  /**
   * Start once first (that start creates the dev account and prints its keys, once), stop, and run the
   * tests on the second start: what a later start of an operator's gateway writes.
   */
  secondStart?: boolean;
}

export async function startHostileGateway(options: HostileGatewayOptions = {}): Promise<HostileGateway> {
  const env = options.env ?? {};
  const dataDir = mkdtempSync(join(tmpdir(), "gw-hostile-"));
  const upstreams = await startFakeProviders({
    apiKey: UPSTREAM_KEY,
    openai: { apiKey: [UPSTREAM_KEY, ...(options.byokKeys ?? [])] },
  });
  const port = await freePort();
  if (port === undefined) throw new Error("no free port");
  const url = `http://127.0.0.1:${port}`;
  const byokMasterKey = randomBytes(32).toString("hex");
  const settings: Record<string, string> = {
    PORT: String(port),
    GW_DATA_DIR: dataDir,
    LOG_LEVEL: "warn",
    BYOK_MASTER_KEY: byokMasterKey,
    OPENAI_API_KEY: UPSTREAM_KEY,
    OPENAI_BASE_URL: upstreams.openai.baseUrl,
    ANTHROPIC_API_KEY: UPSTREAM_KEY,
    ANTHROPIC_BASE_URL: upstreams.anthropic.baseUrl,
    GEMINI_API_KEY: UPSTREAM_KEY,
    GEMINI_BASE_URL: upstreams.gemini.baseUrl,
    FLOOD_ADDRESS_RPS: "100000",
    FLOOD_ADDRESS_BURST: "100000",
    FLOOD_KEY_RPS: "100000",
    FLOOD_KEY_BURST: "100000",
    // The services this machine happens to run stay out: the embedded default needs none.
    DATABASE_URL: "",
    REDIS_URL: "",
    KAFKA_BROKERS: "",
    ...env,
  };
  if (options.secondStart) {
    const first = startProcess("standalone", "apps/standalone/dist/main.js", {
      ...settings,
      LOG_LEVEL: "warn",
    });
    try {
      await waitForHttp(`${url}/readyz`, first, 120_000);
      await eventually(
        async () => (first.output().includes("Model Gateway is running on") ? true : undefined),
        30_000,
      );
    } finally {
      await first.stop();
    }
  }
  const gateway = startProcess("standalone", "apps/standalone/dist/main.js", settings);
  let output = "";
  const append = (chunk: Buffer) => {
    output += chunk.toString();
  };
  gateway.child.stdout?.on("data", append);
  gateway.child.stderr?.on("data", append);
  const stop = async () => {
    await gateway.stop();
    await upstreams.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForHttp(`${url}/readyz`, gateway, 120_000);
    await eventually(async () => (output.includes("Model Gateway is running on") ? true : undefined), 30_000);
  } catch (error) {
    await stop();
    throw error;
  }
  const saved = JSON.parse(readFileSync(join(dataDir, "dev-credentials.json"), "utf8")) as {
    account_id: string;
    api_key: string;
    management_key: string;
  };
  const servers = [upstreams.openai, upstreams.anthropic, upstreams.gemini];
  const received = (server: FakeServer) => server.requests(1)[0]?.seq ?? 0;
  const upstreamCounts = (): UpstreamCounts => ({
    openai: received(upstreams.openai),
    anthropic: received(upstreams.anthropic),
    gemini: received(upstreams.gemini),
  });
  const relayedRefusal = (provider: UpstreamName, answer: Answer, before: unknown, after: unknown) => {
    const [was, now] = [before as UpstreamCounts, after as UpstreamCounts];
    const others = (["openai", "anthropic", "gemini"] as const).filter((name) => name !== provider);
    if (others.some((name) => now[name] !== was[name])) return false;
    if (now[provider] !== was[provider] + 1) return false;
    const request = upstreams[provider].requests(1)[0];
    if (request?.seq !== now[provider] || request.status !== answer.status || answer.status < 400)
      return false;
    // The caller got the fake's own refusal (its message), not one the gateway wrote after forwarding.
    return request.refusal !== undefined && errorMessage(request.refusal) === errorMessage(answer.text);
  };
  return {
    url,
    port,
    apiKey: saved.api_key,
    managementKey: saved.management_key,
    accountId: saved.account_id,
    dataDir,
    byokMasterKey,
    upstreams,
    process: gateway,
    upstreamCalls: () => servers.reduce((sum, server) => sum + received(server), 0),
    upstreamCounts,
    relayedRefusal,
    output: () => output,
    stop,
  };
}

/** The `error.message` of an error body (the three providers' shapes all carry one), or undefined. */
function errorMessage(text: string): string | undefined {
  try {
    const message = (JSON.parse(text) as { error?: { message?: unknown } } | null)?.error?.message;
    return typeof message === "string" ? message : undefined;
  } catch {
    return undefined;
  }
}
