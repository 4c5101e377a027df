import type { TestProject } from "vitest/node";
import { isCI } from "./ci.js";
import { defaultResolveDeps } from "./defaults.js";
import { repoRoot } from "./repo-root.js";
import { type ResolvedRun, resolveServices } from "./resolve.js";
import { type ResolvedServices, SERVICE_NAMES } from "./services.js";

// The root config's global setup runs once per run, in the main vitest process, for the root project
// (whose provided values every project inherits). Should vitest ever run it per project, the
// services are still resolved once: the state lives on globalThis and the last teardown stops them.
interface RunState {
  resolved: Promise<ResolvedRun> | undefined;
  projects: number;
}
const STATE_KEY = Symbol.for("@gw/testing/global-setup");

function runState(): RunState {
  const holder = globalThis as { [STATE_KEY]?: RunState };
  holder[STATE_KEY] ??= { resolved: undefined, projects: 0 };
  return holder[STATE_KEY];
}

const log = (message: string): void => console.log(`[gw-testing] ${message}`);

/** Resolves Postgres, Redis and Kafka for projects whose run includes integration or e2e tests. */
export async function setup(project: TestProject): Promise<void> {
  const state = runState();
  state.projects++;
  if (!(await runNeedsServices(project))) {
    project.provide("gwServices", notResolved("this run has no integration or e2e tests"));
    return;
  }
  state.resolved ??= resolveServices(defaultResolveDeps(repoRoot(), log));
  const { services } = await state.resolved;
  project.provide("gwServices", services);
  const missing = SERVICE_NAMES.filter((name) => services[name].status !== "available");
  if (isCI() && missing.length > 0)
    throw new Error(
      `CI (CI=true or CI=1): every test service must be available, missing: ${missing.join(", ")}`,
    );
}

/** Stops what the run started, once the last project is done with it. */
export async function teardown(): Promise<void> {
  const state = runState();
  state.projects--;
  if (state.projects > 0 || !state.resolved) return;
  const { stops } = await state.resolved.catch(() => ({ stops: [] }));
  state.resolved = undefined;
  for (const stop of stops.reverse()) {
    await stop().catch((error: unknown) => log(`stopping a test service failed: ${String(error)}`));
  }
}

/** Unit-only runs (GW_TEST_TIER=unit, or only packages without such tests) start nothing. */
async function runNeedsServices(project: TestProject): Promise<boolean> {
  const projects = project.vitest.projects.filter((candidate) => !candidate.isRootProject());
  for (const candidate of projects.length > 0 ? projects : [project]) {
    const { testFiles } = await candidate.globTestFiles();
    if (testFiles.some((file) => /\.(int|e2e)\.test\.[cm]?[jt]s$/.test(file))) return true;
  }
  return false;
}

function notResolved(reason: string): ResolvedServices {
  return Object.fromEntries(
    SERVICE_NAMES.map((name) => [name, { status: "unavailable", reason }]),
  ) as ResolvedServices;
}
