// `node scripts/mutate/survivors.mjs <area> [...]`: the mutants of an area's latest report
// (docs/mutation/<area>.json) that no test detected, one line each: file:line, mutator, replacement.
// For reviewing them against the accepted list in docs/mutation/README.md.
import { readFileSync } from "node:fs";

for (const area of process.argv.slice(2)) {
  const report = JSON.parse(readFileSync(`docs/mutation/${area}.json`, "utf8"));
  console.log(`# ${area}`);
  for (const [file, { mutants }] of Object.entries(report.files)) {
    for (const mutant of mutants) {
      if (mutant.status !== "Survived" && mutant.status !== "NoCoverage") continue;
      const where = `${file}:${mutant.location.start.line}`;
      const replacement = (mutant.replacement ?? "").replace(/\s+/g, " ").slice(0, 90);
      console.log(`${mutant.status.padEnd(10)} ${where} ${mutant.mutatorName}: ${replacement}`);
    }
  }
}
