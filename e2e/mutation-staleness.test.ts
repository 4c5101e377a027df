import { join } from "node:path";
import { repoRoot } from "@gw/testing";
import { describe, expect, it } from "vitest";

// CI fails an area whose committed mutation report no longer matches what an incremental run measures on
// today's code and tests (scripts/mutate/staleness.mjs, used by `pnpm mutate --ci`).

interface Mutant {
  mutatorName: string;
  replacement: string;
  status: string;
  location: { start: { line: number; column: number }; end: { line: number; column: number } };
}
interface Report {
  files: Record<string, { source: string; mutants: Mutant[] }>;
}
type Differ = (committed: Report, measured: Report) => string[];

const { reportDifferences } = (await import(join(repoRoot(), "scripts/mutate/staleness.mjs"))) as {
  reportDifferences: Differ;
};

const mutant = (line: number, status: string): Mutant => ({
  mutatorName: "EqualityOperator",
  replacement: "a <= b",
  status,
  location: { start: { line, column: 3 }, end: { line, column: 9 } },
});
const report = (source: string, mutants: Mutant[]): Report => ({
  files: { "packages/money/src/pico.ts": { source, mutants } },
});

describe("mutation report staleness", () => {
  const committed = report("a < b", [mutant(1, "Killed"), mutant(2, "Survived")]);

  it("finds nothing when the run measured the same mutants with the same outcomes", () => {
    expect(
      reportDifferences(committed, report("a < b", [mutant(1, "Killed"), mutant(2, "Survived")])),
    ).toEqual([]);
  });

  it("counts killed and timed out alike (which one a detected mutant ends as depends on load)", () => {
    expect(
      reportDifferences(committed, report("a < b", [mutant(1, "Timeout"), mutant(2, "NoCoverage")])),
    ).toEqual([]);
  });

  it("reports a file whose source changed since the committed run", () => {
    const differences = reportDifferences(
      committed,
      report("a < c", [mutant(1, "Killed"), mutant(2, "Survived")]),
    );
    expect(differences).toEqual(["source changed packages/money/src/pico.ts"]);
  });

  it("does not count a changed outcome on unchanged code (a re-run mutant can end either way)", () => {
    expect(reportDifferences(committed, report("a < b", [mutant(1, "Killed"), mutant(2, "Killed")]))).toEqual(
      [],
    );
  });

  it("reports mutants and files the committed run did not have", () => {
    const measured: Report = {
      files: {
        ...committed.files,
        "packages/money/src/charge.ts": { source: "x", mutants: [mutant(4, "Killed")] },
      },
    };
    const differences = reportDifferences(committed, measured);
    expect(differences[0]).toBe("new file packages/money/src/charge.ts");
    expect(differences).toContainEqual(
      expect.stringMatching(/^measured only: packages\/money\/src\/charge\.ts:4/),
    );
  });
});
