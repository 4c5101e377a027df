// `node scripts/mutate/lua.mjs [--concurrency N] [mutant-id ...]`: the hand-made Lua mutants of the Redis
// admission store (packages/admission-store/src/redis/lua.mutants.ts), since Stryker cannot mutate Lua.
// First the contract suite (redis-store.int.test.ts, real Redis) runs on the real scripts and must pass;
// then once per mutant, with the mutant applied to lua.ts as the suite loads it
// (scripts/mutate/vitest.lua.config.ts). A mutant is killed when at least one case fails. With no
// mutant named, writes docs/mutation/lua.json (every mutant, the cases that killed it, the run time) and
// the Lua section of docs/mutation/README.md. Fails (exit 1) when a mutant survives or is stale.
// `--ci` runs nothing: it checks that lua.json was measured on today's Lua, mutants and suite (their
// hashes are in it) and fails, naming the changed files, when it was not (CI: a stale report cannot stand).
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { applyLuaMutant, LUA_MUTANTS } from "../../packages/admission-store/src/redis/lua.mutants.ts";

const run = promisify(execFile);
const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
process.chdir(root);

const args = process.argv.slice(2);

/** What a Lua mutation run measured: the scripts, the mutants and every file of the suite that kills them. */
const LUA_INPUTS = [
  "packages/admission-store/src/redis/lua.ts",
  "packages/admission-store/src/redis/lua.mutants.ts",
  "packages/admission-store/src/redis-store.int.test.ts",
  "packages/admission-store/src/admission-store.contract.ts",
  "packages/admission-store/src/batch-apply.contract.ts",
  "packages/admission-store/src/lease.contract.ts",
  "packages/admission-store/src/limits.contract.ts",
  "packages/admission-store/src/admission-store.ts",
  "packages/admission-store/src/redis/apply-batch.ts",
  "packages/admission-store/src/redis/connect.ts",
  "packages/admission-store/src/redis/keys.ts",
  "packages/admission-store/src/redis/redis-store.ts",
  "packages/admission-store/src/redis/replies.ts",
  "packages/admission-store/src/redis/script.ts",
];
const inputHashes = () =>
  Object.fromEntries(
    LUA_INPUTS.map((file) => [file, createHash("sha256").update(readFileSync(file)).digest("hex")]),
  );

if (args.includes("--ci")) {
  const committed = JSON.parse(readFileSync("docs/mutation/lua.json", "utf8"));
  const now = inputHashes();
  const changed = LUA_INPUTS.filter((file) => committed.inputs?.[file] !== now[file]);
  if (changed.length > 0) {
    console.error(
      `docs/mutation/lua.json is stale (measured ${committed.date} on other files): run ` +
        `\`node scripts/mutate/lua.mjs\` and commit it. Changed since: ${changed.join(", ")}`,
    );
    process.exit(1);
  }
  console.log(
    `docs/mutation/lua.json is current: ${committed.killed} of ${committed.mutants.length} Lua mutants killed (${committed.date})`,
  );
  process.exit(committed.killed === committed.mutants.length ? 0 : 1);
}
const concurrencyAt = args.indexOf("--concurrency");
const concurrency = concurrencyAt >= 0 ? Number(args[concurrencyAt + 1]) : 1;
const named = args.filter(
  (arg, i) => !arg.startsWith("--") && (concurrencyAt < 0 || i !== concurrencyAt + 1),
);
const unknown = named.filter((id) => !LUA_MUTANTS.some((mutant) => mutant.id === id));
if (unknown.length > 0 || !(concurrency >= 1)) {
  console.error(`usage: node scripts/mutate/lua.mjs [--concurrency N] [mutant-id ...]; unknown: ${unknown}`);
  process.exit(2);
}
const mutants = named.length > 0 ? LUA_MUTANTS.filter((mutant) => named.includes(mutant.id)) : LUA_MUTANTS;

// Stale mutants fail before anything runs.
const luaSource = readFileSync("packages/admission-store/src/redis/lua.ts", "utf8");
for (const mutant of mutants) applyLuaMutant(luaSource, mutant);

const scratch = mkdtempSync(join(tmpdir(), "gw-lua-mutants-"));

/** One run of the suite: the failed cases' names, or the reason it could not tell. */
async function suite(mutantId) {
  const output = join(scratch, `${mutantId || "baseline"}.json`);
  const mark = join(scratch, `${mutantId || "baseline"}.mark`);
  const env = { ...process.env, GW_LUA_MUTANT: mutantId, GW_LUA_MUTANT_MARK: mark };
  const vitest = join(root, "node_modules/.bin/vitest");
  const command = ["run", "--config", "scripts/mutate/vitest.lua.config.ts", "--reporter=json"];
  try {
    await run(vitest, [...command, `--outputFile=${output}`], { env, timeout: 180_000 });
  } catch {
    // vitest exits 1 when a case fails: the report says which.
  }
  if (!existsSync(output)) return { error: "vitest wrote no report (crashed or timed out)" };
  if (mutantId && !existsSync(mark)) return { error: "the mutated lua.ts was never loaded" };
  const report = JSON.parse(readFileSync(output, "utf8"));
  const cases = report.testResults.flatMap((file) => file.assertionResults);
  const failed = cases
    .filter((test) => test.status === "failed")
    .map((test) => [...test.ancestorTitles.slice(1), test.title].join(" > "));
  const loadErrors = report.testResults.filter(
    (file) => file.status === "failed" && file.assertionResults.length === 0,
  );
  if (loadErrors.length > 0) return { error: `the suite did not load: ${loadErrors[0].message}` };
  return { total: cases.length, failed };
}

const started = Date.now();
const baseline = await suite("");
if (baseline.error || baseline.failed.length > 0) {
  console.error(`the contract suite fails on the real Lua: ${baseline.error ?? baseline.failed.join("; ")}`);
  process.exit(1);
}
console.log(`baseline: ${baseline.total} cases pass on the real Lua`);

const results = new Array(mutants.length);
let next = 0;
async function worker() {
  while (next < mutants.length) {
    const index = next++;
    const mutant = mutants[index];
    const outcome = await suite(mutant.id);
    const status = outcome.error ? "error" : outcome.failed.length > 0 ? "killed" : "survived";
    results[index] = { ...mutant, status, killedBy: outcome.failed ?? [], error: outcome.error };
    console.log(
      `${status.padEnd(8)} ${mutant.id}${outcome.failed?.length ? ` (${outcome.failed.length} cases)` : ""}${outcome.error ? `: ${outcome.error}` : ""}`,
    );
  }
}
await Promise.all(Array.from({ length: concurrency }, worker));
const seconds = Math.round((Date.now() - started) / 1000);
rmSync(scratch, { recursive: true, force: true });

const killed = results.filter((result) => result.status === "killed").length;
console.log(
  `\n${killed} of ${results.length} Lua mutants killed in ${seconds} s (concurrency ${concurrency})`,
);

if (named.length === 0) {
  const date = new Date().toISOString().slice(0, 10);
  const inputs = inputHashes();
  const report = {
    date,
    seconds,
    concurrency,
    baselineCases: baseline.total,
    killed,
    inputs,
    mutants: results,
  };
  writeFileSync("docs/mutation/lua.json", `${JSON.stringify(report, null, 2)}\n`);
  writeReadmeSection(report);
}
if (killed < results.length) {
  const left = results.filter((result) => result.status !== "killed").map((result) => result.id);
  console.error(`not killed: ${left.join(", ")}`);
  process.exitCode = 1;
}

/** The table between the Lua markers of docs/mutation/README.md, from this run. */
function writeReadmeSection({ date, seconds, baselineCases, mutants: rows }) {
  const readme = "docs/mutation/README.md";
  const begin = "<!-- lua mutants -->";
  const end = "<!-- end of lua mutants -->";
  const text = readFileSync(readme, "utf8");
  const from = text.indexOf(begin);
  const to = text.indexOf(end);
  if (from < 0 || to < from) throw new Error(`${readme} has no ${begin} … ${end} section`);
  const cell = (value) => value.replaceAll("|", "\\|");
  const killers = (row) => {
    if (row.status !== "killed") return `**${row.status}**${row.error ? `: ${cell(row.error)}` : ""}`;
    const [first, ...more] = row.killedBy;
    return `${cell(first)}${more.length > 0 ? ` (+${more.length} more)` : ""}`;
  };
  const lines = rows.map(
    (row) => `| ${row.id} | ${row.script} | ${cell(row.description)} | ${killers(row)} |`,
  );
  const section = [
    begin,
    "",
    `${rows.filter((row) => row.status === "killed").length} of ${rows.length} killed by the ${baselineCases} ` +
      `cases of redis-store.int.test.ts; ${seconds} s on ${date} (concurrency 1, real Redis). ` +
      "`lua.json` lists every case that killed each mutant.",
    "",
    "| mutant | script | what it would do | killed by (first failing case) |",
    "| --- | --- | --- | --- |",
    ...lines,
    "",
  ].join("\n");
  writeFileSync(readme, text.slice(0, from) + section + text.slice(to));
}
