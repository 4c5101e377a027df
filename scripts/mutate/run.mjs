// `pnpm mutate [--ci] [--concurrency N] [area ...]`: mutation testing (StrykerJS + its vitest runner) of
// the money/auth-critical code, one Stryker run per area of areas.mjs so each area gets its own score.
//   no area named   every area (the full run, ~tens of minutes: integration tests run per mutant)
//   --ci            what CI runs: every area, incrementally from its committed report (docs/mutation/
//                   <area>.json), failing when that report is stale (staleness.mjs) as well as under the floors
// Each run fails (exit code 1) when its score is under BREAK_SCORE or any of its files' is under FILE_FLOOR
// (printed with the file). Outside CI an area's run writes its
// JSON report to docs/mutation/<area>.json and its row of docs/mutation/README.md; reports/mutation/
// holds the HTML reports, CI's reports and the incremental caches (git-ignored). The machine is shared and has two cores,
// hence concurrency 1 by default and incremental mode outside CI.
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Stryker } from "@stryker-mutator/core";
import { AREAS, BREAK_SCORE, FILE_FLOOR } from "./areas.mjs";
import { perFileOfResults, writePerFileTable } from "./per-file.mjs";
import { readReport, reportDifferences } from "./staleness.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
process.chdir(root);
const require = createRequire(import.meta.url);

const args = process.argv.slice(2);
const ci = args.includes("--ci");
const concurrencyAt = args.indexOf("--concurrency");
const concurrency = concurrencyAt >= 0 ? Number(args[concurrencyAt + 1]) : 1;
const named = args.filter(
  (arg, i) => !arg.startsWith("--") && (concurrencyAt < 0 || i !== concurrencyAt + 1),
);
const unknown = named.filter((name) => !(name in AREAS));
if (unknown.length > 0 || !(concurrency >= 1)) {
  console.error(`usage: pnpm mutate [--ci] [--concurrency N] [${Object.keys(AREAS).join("|")} ...]`);
  process.exit(2);
}
const areaNames = named.length > 0 ? named : Object.keys(AREAS);

// Stryker copies the project into a sandbox: only what the tests need (node_modules are symlinked).
const SANDBOX_ONLY = ["/*", "!/packages", "!/apps", "!/scripts", "!/package.json", "!/pnpm-workspace.yaml"];

/** Mutation score as Stryker computes it: detected / (detected + undetected), over valid mutants. */
function scoreOf(results) {
  const count = (...statuses) => results.filter((result) => statuses.includes(result.status)).length;
  const detected = count("Killed", "Timeout");
  const undetected = count("Survived", "NoCoverage");
  return {
    mutants: results.length,
    killed: count("Killed"),
    timeout: count("Timeout"),
    survived: count("Survived"),
    noCoverage: count("NoCoverage"),
    errors: count("CompileError", "RuntimeError"),
    score: detected + undetected === 0 ? 100 : (100 * detected) / (detected + undetected),
  };
}

async function runArea(name) {
  const area = AREAS[name];
  process.env.GW_MUTATE_AREA = name; // read by vitest.config.ts in Stryker's workers
  const committedFile = `docs/mutation/${name}.json`;
  const jsonFile = ci ? `reports/mutation/${name}.json` : committedFile;
  // CI starts from the committed report (a copy: Stryker rewrites its incremental file), so only the
  // mutants whose code or covering tests changed since it was measured are run; elsewhere from the
  // local cache (delete it for a full run).
  const incrementalFile = ci
    ? `reports/mutation/${name}.ci-incremental.json`
    : `reports/mutation/${name}.incremental.json`;
  if (ci) {
    mkdirSync("reports/mutation", { recursive: true });
    copyFileSync(committedFile, incrementalFile);
  }
  const stryker = new Stryker({
    testRunner: "vitest",
    plugins: [require.resolve("@stryker-mutator/vitest-runner")],
    vitest: { configFile: "scripts/mutate/vitest.config.ts" },
    mutate: area.mutate,
    coverageAnalysis: "perTest",
    concurrency,
    incremental: true,
    incrementalFile,
    reporters: ["clear-text", "progress", "json", "html"],
    jsonReporter: { fileName: jsonFile },
    htmlReporter: { fileName: `reports/mutation/${name}.html` },
    clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true },
    thresholds: { high: 90, low: BREAK_SCORE, break: BREAK_SCORE },
    tempDirName: ".stryker-tmp",
    ignorePatterns: SANDBOX_ONLY,
    // A mutant that hangs a test is detected by this timeout (on top of 1.5 × the test's own time);
    // areas whose integration tests wait on Postgres/Redis/Kafka get more room.
    timeoutMS: area.timeoutMs ?? 10_000,
    fileLogLevel: "off",
  });
  const incremental = existsSync(incrementalFile);
  const started = Date.now();
  const results = await stryker.runMutationTest();
  const seconds = Math.round((Date.now() - started) / 1000);
  const files = perFileOfResults(root, results);
  for (const file of files)
    console.log(`${file.score.toFixed(2).padStart(6)}%  ${file.mutants} mutants  ${file.file}`);
  const date = new Date().toISOString().slice(0, 10);
  const stale = ci ? reportDifferences(readReport(committedFile), readReport(jsonFile)) : [];
  return { name, seconds, incremental, date, files, stale, ...scoreOf(results) };
}

const rows = [];
for (const name of areaNames) rows.push(await runArea(name));

const COLUMNS = "| area | mutants | killed | timeout | survived | no coverage | score | run time | date |";
const formatRow = (row) =>
  `| ${row.name} | ${row.mutants} | ${row.killed} | ${row.timeout} | ${row.survived} | ${row.noCoverage} | ` +
  `${row.score.toFixed(2)}% | ${row.seconds} s${row.incremental ? " (incremental)" : ""} | ${row.date} |`;
const tableOf = (lines) =>
  [COLUMNS, "| --- | --: | --: | --: | --: | --: | --: | --: | --- |", ...lines].join("\n");
console.log(`\nmutation scores (break at ${BREAK_SCORE}%):\n${tableOf(rows.map(formatRow))}`);

// Outside CI each area's row in docs/mutation/README.md is replaced by this run's, so the table holds
// the latest run of every area (each dated); the text after the table is kept.
if (!ci) {
  const readme = "docs/mutation/README.md";
  mkdirSync("docs/mutation", { recursive: true });
  const previous = existsSync(readme) ? readFileSync(readme, "utf8") : "";
  const [tablePart = "", notesPart] = previous.split("<!-- end of table -->");
  const kept = new Map(
    tablePart
      .split("\n")
      .filter((line) => line.startsWith("| ") && !line.startsWith("| area") && !line.startsWith("| ---"))
      .map((line) => [line.split("|")[1]?.trim(), line]),
  );
  for (const row of rows) kept.set(row.name, formatRow(row));
  const lines = Object.keys(AREAS).flatMap((name) => (kept.has(name) ? [kept.get(name)] : []));
  const notes = notesPart ?? "\n";
  writeFileSync(
    readme,
    "# Mutation testing\n\nLatest `pnpm mutate` run of each area (scripts/mutate/areas.mjs), concurrency " +
      `${concurrency}; \`<area>.json\` beside this file is its full report (mutation-testing-elements ` +
      `schema: every mutant, its status and the tests that covered or killed it).\n\n${tableOf(lines)}\n` +
      `<!-- end of table -->${notes}`,
  );
  writePerFileTable(readme);
  // Biome formats Markdown (table padding): leave the file as `pnpm check` expects it.
  execFileSync(join(root, "node_modules/.bin/biome"), ["format", "--write", readme], { stdio: "ignore" });
}
const failed = rows.filter((row) => row.score < BREAK_SCORE);
if (failed.length > 0) {
  console.error(`under ${BREAK_SCORE}%: ${failed.map((row) => row.name).join(", ")}`);
  process.exitCode = 1;
}
const weakFiles = rows.flatMap((row) =>
  row.files.filter((file) => file.score < FILE_FLOOR).map((file) => ({ area: row.name, ...file })),
);
for (const file of weakFiles)
  console.error(`file under ${FILE_FLOOR}% in ${file.area}: ${file.file} ${file.score.toFixed(2)}%`);
if (weakFiles.length > 0) process.exitCode = 1;
for (const row of rows.filter((candidate) => candidate.stale.length > 0)) {
  console.error(
    `docs/mutation/${row.name}.json is stale (measured on other code or tests): run \`pnpm mutate ${row.name}\` ` +
      `and commit its report. ${row.stale.length} difference(s), the first:\n  ${row.stale.slice(0, 10).join("\n  ")}`,
  );
  process.exitCode = 1;
}
