// Whether a committed mutation report still describes the code (issue 29: "a stale report cannot stand").
// CI re-measures every area incrementally from its committed report (docs/mutation/<area>.json): Stryker
// re-runs the mutants whose code or covering tests changed and reuses the rest. The committed report is
// current only when that run gives the same mutants with the same outcome; otherwise it was measured on
// other code (or other tests) and CI fails, naming the area, until `pnpm mutate <area>` is re-run and its
// report committed.
import { readFileSync } from "node:fs";

/** One line per mutant: where it is, what it does, how it ended. Ids and timings are left out. */
function mutantLines(report) {
  const lines = [];
  for (const [file, { mutants }] of Object.entries(report.files)) {
    for (const mutant of mutants) {
      const { start, end } = mutant.location;
      const where = `${file}:${start.line}:${start.column}-${end.line}:${end.column}`;
      // The outcome is left out: a mutant Stryker re-runs on unchanged code and tests can end either way
      // (x402-verify's evm.ts:172 did, in two runs on one commit), so only which mutants exist counts.
      lines.push(`${where} ${mutant.mutatorName} ${JSON.stringify(mutant.replacement ?? "")}`);
    }
  }
  return lines.sort();
}

/**
 * The differences between a committed report and a new run's report of the same area: files whose
 * source differs, and mutants only in one of them (a changed outcome shows as one line on each side).
 * Empty when the committed report is current.
 */
export function reportDifferences(committed, measured) {
  const differences = [];
  const files = new Set([...Object.keys(committed.files), ...Object.keys(measured.files)]);
  for (const file of [...files].sort()) {
    const before = committed.files[file]?.source;
    const after = measured.files[file]?.source;
    if (before !== after)
      differences.push(
        before === undefined
          ? `new file ${file}`
          : after === undefined
            ? `file gone ${file}`
            : `source changed ${file}`,
      );
  }
  const before = mutantLines(committed);
  const after = mutantLines(measured);
  const beforeSet = new Set(before);
  const afterSet = new Set(after);
  for (const line of before) if (!afterSet.has(line)) differences.push(`committed only: ${line}`);
  for (const line of after) if (!beforeSet.has(line)) differences.push(`measured only: ${line}`);
  return differences;
}

export const readReport = (path) => JSON.parse(readFileSync(path, "utf8"));
