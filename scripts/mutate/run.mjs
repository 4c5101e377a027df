// `pnpm mutate [--ci] [--concurrency N] [area ...]`: mutation testing (StrykerJS + its vitest runner) of
// the money/auth-critical code, one Stryker run per area of areas.mjs so each area gets its own score.
//   no area named   every area (the full run, ~tens of minutes: integration tests run per mutant)
//   --ci            the bounded subset CI runs (CI_AREAS), without the incremental cache
// Each run fails (exit code 1) when its score is under BREAK_SCORE. The full run writes its JSON report
// to docs/mutation/<area>.json and a summary table to docs/mutation/README.md; reports/mutation/ holds
// the HTML reports and the incremental caches (git-ignored). The machine is shared and has two cores,
// hence concurrency 1 by default and incremental mode outside CI.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Stryker } from "@stryker-mutator/core";
import { AREAS, BREAK_SCORE, CI_AREAS } from "./areas.mjs";

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
const areaNames = named.length > 0 ? named : ci ? CI_AREAS : Object.keys(AREAS);
// Only a run of every area rewrites the committed report; partial and CI runs report under reports/.
const fullRun = !ci && named.length === 0;

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
  const jsonFile = fullRun ? `docs/mutation/${name}.json` : `reports/mutation/${name}.json`;
  const stryker = new Stryker({
    testRunner: "vitest",
    plugins: [require.resolve("@stryker-mutator/vitest-runner")],
    vitest: { configFile: "scripts/mutate/vitest.config.ts" },
    mutate: area.mutate,
    coverageAnalysis: "perTest",
    concurrency,
    incremental: !ci,
    incrementalFile: `reports/mutation/${name}.incremental.json`,
    reporters: ["clear-text", "progress", "json", "html"],
    jsonReporter: { fileName: jsonFile },
    htmlReporter: { fileName: `reports/mutation/${name}.html` },
    clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true },
    thresholds: { high: 90, low: BREAK_SCORE, break: BREAK_SCORE },
    tempDirName: ".stryker-tmp",
    ignorePatterns: SANDBOX_ONLY,
    // Integration tests start servers and wait on Postgres/Redis/Kafka: a mutant that hangs one is
    // caught by the timeout, not by a test, so leave them room.
    timeoutMS: 30_000,
    fileLogLevel: "off",
  });
  const started = Date.now();
  const results = await stryker.runMutationTest();
  return { name, seconds: Math.round((Date.now() - started) / 1000), ...scoreOf(results) };
}

const rows = [];
for (const name of areaNames) rows.push(await runArea(name));

const header = "| area | mutants | killed | timeout | survived | no coverage | score | run time |";
const table = [
  header,
  "| --- | --: | --: | --: | --: | --: | --: | --: |",
  ...rows.map(
    (row) =>
      `| ${row.name} | ${row.mutants} | ${row.killed} | ${row.timeout} | ${row.survived} | ${row.noCoverage} | ` +
      `${row.score.toFixed(2)}% | ${row.seconds} s |`,
  ),
].join("\n");
console.log(`\nmutation scores (break at ${BREAK_SCORE}%):\n${table}`);

if (fullRun) {
  mkdirSync("docs/mutation", { recursive: true });
  const readme = "docs/mutation/README.md";
  const previous = readFileSync(readme, { encoding: "utf8", flag: "a+" });
  const notes = previous.split("<!-- notes -->")[1] ?? "\n";
  const date = new Date().toISOString().slice(0, 10);
  writeFileSync(
    readme,
    `# Mutation testing\n\nFull run of ${date}, \`pnpm mutate\` (concurrency ${concurrency}); ` +
      `the JSON reports beside this file open in any mutation-testing-elements viewer.\n\n${table}\n\n<!-- notes -->${notes}`,
  );
}
const failed = rows.filter((row) => row.score < BREAK_SCORE);
if (failed.length > 0) {
  console.error(`under ${BREAK_SCORE}%: ${failed.map((row) => row.name).join(", ")}`);
  process.exitCode = 1;
}
