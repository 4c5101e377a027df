import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, release, totalmem } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "@gw/db";
import { groupsReadingAll, readGroups } from "./accounting/consumer-groups.js";
import { resolveInfrastructure } from "./infra.js";
import { planFor } from "./plan.js";
import { type BenchProcess, loadAverage, rssMb, startProcess, waitForOutput } from "./proc.js";
import { markdown, type Report, verdicts } from "./report.js";
import {
  type Configure,
  LOAD_PARTS,
  type LoadPart,
  loadScenarios,
  longRun,
  openStreamScenario,
} from "./scenarios.js";
import { directTarget } from "./targets/direct.js";
import { startEdges } from "./targets/edge.js";
import { startFloor } from "./targets/floor.js";
import { startNginx } from "./targets/nginx.js";
import { startPortkey } from "./targets/portkey.js";
import type { Target } from "./targets/target.js";

// pnpm bench [--quick]: the fake upstream, our edge and Portkey's gateway measured in one run.
const benchDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const root = join(benchDir, "..");
const quick = process.argv.includes("--quick");
/**
 * `--only=load,streams,long` runs a subset (development); the default is all three. Instead of `load`,
 * some of its scenarios: `rate`, `low`, `saturation`, `prompt`, `delayed`, `stream`, `paced`; instead of
 * `streams`, one of its phases: `fresh-streams` (before any load) or `after-streams`.
 */
const only = (process.argv.find((arg) => arg.startsWith("--only="))?.slice(7) ?? "load,streams,long").split(
  ",",
);
const wants = (name: string): boolean =>
  only.includes(name) || (name.endsWith("-streams") && only.includes("streams"));
/** `--long-requests=N` shortens (or lengthens) the long run; the issue's default is 1,000,000. */
const longArg = process.argv.find((arg) => arg.startsWith("--long-requests="));
/** `--rate=N` changes the open-loop rate (default 1,000 req/s), e.g. to one every target sustains. */
const rateArg = process.argv.find((arg) => arg.startsWith("--rate="));
/** `--targets=direct,split` keeps the targets whose name contains one of the words (development). */
const targetWords = process.argv
  .find((arg) => arg.startsWith("--targets="))
  ?.slice(10)
  .split(",");
const plan = planFor(
  quick,
  longArg ? Number(longArg.slice(16)) : undefined,
  rateArg ? Number(rateArg.slice(7)) : undefined,
);
const before = loadAverage();
const started: Array<{ stop(): Promise<void> }> = [];

async function startUpstream(): Promise<{ process: BenchProcess; url: string; configure: Configure }> {
  const upstream = startProcess(
    "upstream",
    process.execPath,
    [join(benchDir, "dist/upstream/main.js"), String(await freePort())],
    {},
  );
  started.push(upstream);
  const url = await waitForOutput(upstream, /UPSTREAM_URL=(\S+)/);
  const configure: Configure = async (settings) => {
    const response = await fetch(`${url}/__bench/config`, { method: "POST", body: JSON.stringify(settings) });
    if (!response.ok) throw new Error(`upstream config: ${response.status}`);
  };
  return { process: upstream, url, configure };
}

async function main(): Promise<void> {
  const upstream = await startUpstream();
  const infra = await resolveInfrastructure(root);
  if (infra.kind === "split") started.push(infra);
  const targets: Target[] = [directTarget(upstream.url, upstream.process)];
  let nginxError: string | undefined;
  try {
    const nginx = await startNginx(benchDir, upstream.url);
    started.push(nginx);
    targets.push(nginx);
  } catch (error) {
    nginxError = (error as Error).message;
    process.stderr.write(`nginx (the one-hop anchor) skipped: ${nginxError}\n`);
  }
  // The least any Node edge on this stack does per request (a bare relay): the floor under the edge targets.
  const floor = await startFloor(benchDir, upstream.url);
  started.push(floor);
  targets.push(floor);
  // Split plane (when its services are reachable) and embedded default, each its own row.
  const edges = await startEdges(root, infra, upstream.url);
  started.push(...edges);
  targets.push(...edges);
  let portkeyError: string | undefined;
  try {
    const portkey = await startPortkey(upstream.url);
    started.push(portkey);
    targets.push(portkey);
  } catch (error) {
    portkeyError = (error as Error).message;
    process.stderr.write(`Portkey's gateway did not start: ${portkeyError}\n`);
  }
  if (targetWords) {
    const kept = targets.filter((target) => targetWords.some((word) => target.name.includes(word)));
    targets.splice(0, targets.length, ...kept);
  }
  for (const target of targets) process.stderr.write(`${target.name}: ${target.description}\n`);
  // Before any request: what each target costs just by running.
  const idleRssMb = Object.fromEntries(targets.map((target) => [target.name, rssMb(target.pids()[0] ?? 0)]));
  const loadParts = new Set<LoadPart>(
    only.includes("load") ? LOAD_PARTS : LOAD_PARTS.filter((part) => only.includes(part)),
  );
  // On edge processes that have served nothing yet (only the API key's creation), before any load; the
  // node floor beside them, so its heap per open stream is read in the same phase.
  const freshEdges = targets.filter(
    (target) => target.name.startsWith("edge") || target.name === "node floor",
  );
  const openStreams = wants("fresh-streams")
    ? await openStreamScenario(plan, freshEdges, upstream.configure, "fresh")
    : [];
  const rows = loadParts.size > 0 ? await loadScenarios(plan, targets, upstream.configure, loadParts) : [];
  const consumerGroups = await usageGroups(targets);
  if (wants("after-streams"))
    openStreams.push(...(await openStreamScenario(plan, targets, upstream.configure, "after the load")));
  // The long run is on one edge only (it takes minutes): the split plane when there is one.
  const long = only.includes("long") && edges[0] ? await longRun(plan, edges[0]) : undefined;
  const partial: Omit<Report, "verdicts"> = {
    date: new Date().toISOString(),
    quick,
    machine: {
      cpus: cpus()[0]?.model ?? "unknown",
      cores: cpus().length,
      memoryGb: Math.round(totalmem() / 2 ** 30),
      node: process.version,
      kernel: release(),
    },
    loadAverage: { before, after: loadAverage() },
    targets: Object.fromEntries(targets.map((target) => [target.name, target.description])),
    ...(portkeyError ? { portkeyError } : {}),
    ...(nginxError ? { nginxError } : {}),
    ...(consumerGroups ? { consumerGroups } : {}),
    idleRssMb,
    rows,
    openStreams,
    ...(long ? { longRun: long } : {}),
  };
  const report: Report = { ...partial, verdicts: verdicts(partial) };
  const resultsDir = join(benchDir, "results");
  mkdirSync(resultsDir, { recursive: true });
  const file = join(resultsDir, `${report.date.replace(/[:.]/g, "-")}${quick ? "-quick" : ""}.json`);
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  const header = `${report.machine.cores} × ${report.machine.cpus}, ${report.machine.memoryGb} GB, Node ${report.machine.node}; load average before ${before}, after ${report.loadAverage.after}`;
  process.stdout.write(
    `\n${header}\n${Object.entries(report.targets)
      .map(([name, text]) => `${name}: ${text}`)
      .join("\n")}\n\n${markdown(report)}\n\nJSON: ${file}\n`,
  );
}

/** The consumer groups that read every usage event of the split plane's topic, from the broker. */
async function usageGroups(targets: Target[]): Promise<Report["consumerGroups"]> {
  const split = targets.find((target) => target.usage);
  if (!split?.usage) return undefined;
  try {
    const { end, groups } = await readGroups(split.usage.brokers, split.usage.topic);
    const sum = (offsets: Record<number, number>): number =>
      Object.values(offsets).reduce((total, offset) => total + Math.max(0, offset), 0);
    return {
      target: split.name,
      topic: split.usage.topic,
      published: sum(end),
      committed: Object.fromEntries(Object.entries(groups).map(([group, offsets]) => [group, sum(offsets)])),
      readingAll: groupsReadingAll(end, groups),
    };
  } catch (error) {
    process.stderr.write(`consumer groups not read: ${(error as Error).message}\n`);
    return undefined;
  }
}

async function stopAll(): Promise<void> {
  for (const item of started.reverse()) await item.stop().catch(() => {});
}

// Ctrl-C or a kill stops the apps, brokers and gateways this run started, not just the runner.
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    stopAll().then(() => process.exit(130));
  });
}

main().then(
  () => stopAll().then(() => process.exit(0)),
  (error: unknown) => {
    process.stderr.write(`bench failed: ${(error as Error).stack ?? String(error)}\n`);
    stopAll().then(() => process.exit(1));
  },
);
