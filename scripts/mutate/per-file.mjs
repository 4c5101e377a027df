// Per-file mutation scores (issue 29): an area's 80 % break lets one weak file hide among strong ones,
// so every mutated file must also score at least FILE_FLOOR. `node scripts/mutate/per-file.mjs`
// rewrites the per-file table of docs/mutation/README.md from the committed reports
// (docs/mutation/<area>.json); run.mjs does it after each run and fails an area with a file under the floor.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { matchesGlob, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { AREAS, FILE_FLOOR } from "./areas.mjs";

/** Stryker's score over a list of mutant statuses: detected / (detected + undetected). */
export function scoreOfStatuses(statuses) {
  const detected = statuses.filter((status) => status === "Killed" || status === "Timeout").length;
  const undetected = statuses.filter((status) => status === "Survived" || status === "NoCoverage").length;
  return {
    mutants: statuses.length,
    score: detected + undetected === 0 ? 100 : (100 * detected) / (detected + undetected),
  };
}

/** Whether the area's mutate list (globs, `!` excludes) names the file today. */
export function areaMutates(area, file) {
  const included = area.mutate.some((pattern) => !pattern.startsWith("!") && matchesGlob(file, pattern));
  const excluded = area.mutate.some(
    (pattern) => pattern.startsWith("!") && matchesGlob(file, pattern.slice(1)),
  );
  return included && !excluded;
}

/** [{ file, mutants, score }] of a run's results (Stryker's MutantResult: fileName, status). */
export function perFileOfResults(root, results) {
  const byFile = new Map();
  for (const result of results) {
    const file = relative(root, result.fileName);
    byFile.set(file, [...(byFile.get(file) ?? []), result.status]);
  }
  return [...byFile].map(([file, statuses]) => ({ file, ...scoreOfStatuses(statuses) }));
}

/**
 * Every area's files from its committed report, those the area still mutates (a file moved to
 * another area is reported there), with the report's date.
 */
export function perFileOfReports(docs = "docs/mutation") {
  const rows = [];
  for (const [name, area] of Object.entries(AREAS)) {
    const path = `${docs}/${name}.json`;
    if (!existsSync(path)) continue;
    const report = JSON.parse(readFileSync(path, "utf8"));
    for (const [file, { mutants }] of Object.entries(report.files)) {
      if (!areaMutates(area, file)) continue;
      rows.push({ area: name, file, ...scoreOfStatuses(mutants.map((mutant) => mutant.status)) });
    }
  }
  return rows;
}

const BEGIN = "<!-- per-file table -->";
const END = "<!-- end of per-file table -->";

/** Rewrites the per-file section of the README (between its markers) from the committed reports. */
export function writePerFileTable(readme = "docs/mutation/README.md") {
  const text = readFileSync(readme, "utf8");
  const from = text.indexOf(BEGIN);
  const to = text.indexOf(END);
  if (from < 0 || to < from) throw new Error(`${readme} has no ${BEGIN} … ${END} section`);
  const rows = perFileOfReports();
  const under = rows.filter((row) => row.score < FILE_FLOOR);
  const lines = rows.map(
    (row) =>
      `| ${row.area} | ${row.file} | ${row.mutants} | ${row.score < FILE_FLOOR ? `**${row.score.toFixed(2)}%**` : `${row.score.toFixed(2)}%`} |`,
  );
  const section = [
    BEGIN,
    "",
    `Every mutated file of each area's latest report; in bold, under the ${FILE_FLOOR} % floor ` +
      `(${under.length} of ${rows.length} files).`,
    "",
    "| area | file | mutants | score |",
    "| --- | --- | --: | --: |",
    ...lines,
    "",
  ].join("\n");
  writeFileSync(readme, text.slice(0, from) + section + text.slice(to));
  return under;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const under = writePerFileTable();
  for (const row of under)
    console.log(`under ${FILE_FLOOR}%: ${row.area} ${row.file} ${row.score.toFixed(2)}%`);
}
