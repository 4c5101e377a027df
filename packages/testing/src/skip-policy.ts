import { isCI } from "./ci.js";
import { SERVICE_NAMES, SERVICE_REMEDY, type ServiceName } from "./services.js";

/** One skipped test, as the summary reporter sees it. */
export interface SkippedTest {
  file: string;
  fullName: string;
}

/** The marker describeWith/itWith put in a skipped block's title: `[skipped: redis unavailable (…)]`. */
const MARKER = /\[skipped: ([^\]]*)\]/;

export interface SkipReport {
  /** Lines to print after the counts (empty when nothing was skipped). */
  lines: string[];
  /** Whether the run fails for its skips. */
  fails: boolean;
}

/**
 * A run that skips tests is not a pass. Names every file with skipped tests and why, every missing
 * service with how to provide it, and fails the run unless the caller opted in with GW_ALLOW_SKIPS=1
 * (never under CI, where the global setup already refuses to run without a service).
 */
export function skipReport(
  skipped: readonly SkippedTest[],
  env: Record<string, string | undefined>,
): SkipReport {
  if (skipped.length === 0) return { lines: [], fails: false };
  const byFile = new Map<string, { count: number; reasons: Set<string> }>();
  const missing = new Set<ServiceName>();
  for (const test of skipped) {
    const reason =
      MARKER.exec(test.fullName)?.[1] ?? "skipped in the test file itself (it.skip / describe.skip)";
    const entry = byFile.get(test.file) ?? { count: 0, reasons: new Set<string>() };
    entry.count++;
    entry.reasons.add(reason);
    byFile.set(test.file, entry);
    for (const name of SERVICE_NAMES) if (reason.includes(`${name} unavailable`)) missing.add(name);
  }
  const lines = [`skipped: ${skipped.length} test(s) in ${byFile.size} file(s):`];
  for (const [file, entry] of [...byFile].sort(([a], [b]) => a.localeCompare(b)))
    lines.push(`  ${file} (${entry.count}): ${[...entry.reasons].join("; ")}`);
  if (missing.size > 0) {
    lines.push("missing services, and how to provide them:");
    for (const name of missing) lines.push(`  ${name}: ${SERVICE_REMEDY[name]}`);
  }
  const allowed = !isCI(env) && env.GW_ALLOW_SKIPS === "1";
  lines.push(
    allowed
      ? "GW_ALLOW_SKIPS=1: the skipped tests above are accepted; this is a partial run."
      : isCI(env)
        ? "CI: every test must run; a skipped test fails the run."
        : "A run that skips tests is not a pass: provide the services above, or set GW_ALLOW_SKIPS=1 to accept a partial run.",
  );
  return { lines, fails: !allowed };
}
