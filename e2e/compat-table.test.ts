import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { MATRIX_CASES } from "./client-matrix/cases.js";
import type { Format } from "./client-matrix/context.js";
import { MODELS } from "./client-matrix/context.js";
import { KNOWN_FAILURES, knownFailure } from "./client-matrix/known-failures.js";

// The compatibility table in docs/openrouter-compatibility.md is generated from the recorded client
// matrix run (docs/client-matrix.json) by scripts/compat-table.mjs: a hand edit, or a run recorded and
// not rendered, fails here; so does a case added to the matrix without a recorded run.

const root = join(import.meta.dirname, "..");
const script = join(root, "scripts/compat-table.mjs");
const doc = join(root, "docs/openrouter-compatibility.md");
const scratch = mkdtempSync(join(tmpdir(), "compat-table-"));

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const check = (path: string) => spawnSync("node", [script, "--check", "--doc", path], { encoding: "utf8" });

interface Recorded {
  outcomes: {
    sdk: string;
    call: string;
    format: Format;
    decision?: string;
    planes: Record<string, { status: string; reason?: string }>;
  }[];
}

const recorded = () => JSON.parse(readFileSync(join(root, "docs/client-matrix.json"), "utf8")) as Recorded;

describe("the generated client compatibility table", () => {
  it("the committed table is the one the committed results render", () => {
    const result = check(doc);
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
  });

  it("a hand edit of a cell fails the check", () => {
    const edited = join(scratch, "edited.md");
    const text = readFileSync(doc, "utf8");
    // The known failure's cell shown as a pass (same width, so the table stays aligned).
    const changed = text.replace(/known \[1\]( *)\|/, (_, pad: string) => `pass     ${pad}|`);
    expect(changed).not.toBe(text);
    writeFileSync(edited, changed);
    const result = check(edited);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("differs from the one docs/client-matrix.json renders");
  });

  it("the recorded run has every case of the matrix on every format and both planes, and nothing else", () => {
    const { outcomes } = recorded();
    const expected = MATRIX_CASES.flatMap((c) => Object.keys(MODELS).map((f) => `${c.sdk} ${c.call} ${f}`));
    expect(outcomes.map((o) => `${o.sdk} ${o.call} ${o.format}`).sort()).toEqual(expected.sort());
    for (const outcome of outcomes) expect(Object.keys(outcome.planes).sort()).toEqual(["embedded", "split"]);
  });

  // The matrix fails on any case that does not pass and on a known failure that passes, so a green run
  // is exactly this: what the committed table shows is what the matrix and its known failures say.
  it("the recorded run is a green one: every case passes but the known failures, with their reasons as listed", () => {
    for (const outcome of recorded().outcomes) {
      const known = knownFailure(outcome.sdk, outcome.call, outcome.format);
      for (const plane of Object.values(outcome.planes))
        expect(plane).toEqual(known ? { status: "known", reason: known.reason } : { status: "pass" });
      expect(outcome.decision).toBe(known?.decision);
    }
  });

  it("every known failure names its reason and a decision that exists in docs/", () => {
    for (const known of KNOWN_FAILURES) {
      expect(known.reason.length).toBeGreaterThan(20);
      const [file, anchor] = known.decision.split("#");
      const text = readFileSync(join(root, "docs", file ?? ""), "utf8");
      const headings = [...text.matchAll(/^#+ (.+)$/gm)].map((m) =>
        (m[1] ?? "")
          .toLowerCase()
          .replace(/[^\p{L}\p{N} -]/gu, "")
          .replace(/ /g, "-"),
      );
      expect(headings).toContain(anchor);
    }
  });

  it("--render rewrites a hand-edited table back to the generated one", () => {
    const edited = join(scratch, "render.md");
    writeFileSync(edited, readFileSync(doc, "utf8").replace("| pass ", "| fail "));
    execFileSync("node", [script, "--render", "--doc", edited]);
    expect(readFileSync(edited, "utf8")).toBe(readFileSync(doc, "utf8"));
  });
});
