import { relative } from "node:path";
import type { Reporter, TestModule, Vitest } from "vitest/node";
import { type SkippedTest, skipReport } from "../packages/testing/dist/skip-policy.js";

// Prints one plain closing line, "tests: N passed, N failed, N skipped", that any CI can read. A run
// that skipped tests is not a pass (packages/testing/src/skip-policy.ts): every skipped file is named
// with the missing service and how to provide it, and the run fails unless GW_ALLOW_SKIPS=1 (never
// under CI=true or CI=1). Tests left out by a name filter (`-t`) are not skipped, only not selected.
export class SummaryReporter implements Reporter {
  private namePattern: RegExp | undefined;

  onInit(vitest: Vitest): void {
    this.namePattern = vitest.config.testNamePattern;
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let notRun = 0;
    const skipped: SkippedTest[] = [];
    for (const testModule of testModules) {
      const file = relative(process.cwd(), testModule.moduleId);
      // A file whose setup failed leaves its tests unrun: that is its failure, not a skip.
      const moduleFailed = testModule.state() === "failed";
      let failedHere = 0;
      for (const testCase of testModule.children.allTests()) {
        const state = testCase.result().state;
        if (state === "passed") passed++;
        else if (state === "failed") failedHere++;
        else if (moduleFailed) notRun++;
        else if (!this.namePattern || this.namePattern.test(testCase.fullName.replaceAll(" > ", " ")))
          skipped.push({ file, fullName: testCase.fullName });
      }
      failed += moduleFailed && failedHere === 0 ? 1 : failedHere;
    }
    console.log(`tests: ${passed} passed, ${failed} failed, ${skipped.length} skipped`);
    if (notRun > 0) console.error(`${notRun} test(s) not run because their file failed (see above)`);
    const report = skipReport(skipped, process.env);
    if (report.lines.length === 0) return;
    (report.fails ? console.error : console.log)(report.lines.join("\n"));
    if (report.fails) process.exitCode = 1;
  }
}
