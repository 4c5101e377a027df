import type { Reporter, TestModule } from "vitest/node";

// Prints one plain closing line, "tests: N passed, N failed, N skipped", that any CI can read, and
// under CI=true turns a skipped test into a failure: in CI every service must be there.
export class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const testModule of testModules) {
      for (const testCase of testModule.children.allTests()) {
        const state = testCase.result().state;
        if (state === "passed") passed++;
        else if (state === "failed") failed++;
        else skipped++;
      }
      if (testModule.state() === "failed" && testModule.children.size === 0) failed++;
    }
    console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
    if (process.env.CI === "true" && skipped > 0) {
      console.error(`CI=true: ${skipped} test(s) skipped; every test must run in CI`);
      process.exitCode = 1;
    }
  }
}
