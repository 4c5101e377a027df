import { describe, inject, it, type TestFunction } from "vitest";
import { isCI } from "./ci.js";
import { type ResolvedServices, SERVICE_NAMES, SERVICE_REMEDY, type ServiceName } from "./services.js";

/** The services the global setup resolved for this run (all unavailable when it did not run). */
export function testServices(): ResolvedServices {
  let provided: ResolvedServices | undefined;
  try {
    provided = inject("gwServices");
  } catch {
    provided = undefined;
  }
  if (provided) return provided;
  const reason = "the @gw/testing global setup did not run (see vitest.config.ts)";
  return Object.fromEntries(
    SERVICE_NAMES.map((name) => [name, { status: "unavailable", reason }]),
  ) as ResolvedServices;
}

/** Why some of `names` cannot be used, or undefined when all are there. */
export function missingServices(
  names: readonly ServiceName[],
  services: ResolvedServices = testServices(),
): string | undefined {
  const missing = names.flatMap((name) => {
    const state = services[name];
    return state.status === "available" ? [] : [`${name} unavailable (${state.reason})`];
  });
  return missing.length > 0 ? missing.join("; ") : undefined;
}

/** The URL (Postgres, Redis) or broker list (Kafka) of a service; throws when it is unavailable. */
export function serviceUrl(name: ServiceName, services: ResolvedServices = testServices()): string {
  const state = services[name];
  if (state.status !== "available") throw new Error(`${name} unavailable: ${state.reason}`);
  return state.url;
}

export function kafkaBrokers(services: ResolvedServices = testServices()): string[] {
  return serviceUrl("kafka", services)
    .split(",")
    .map((broker) => broker.trim())
    .filter(Boolean);
}

/**
 * A describe block that needs real services. When one is missing it is skipped with the reason in
 * its title (and printed), except under CI=true, where it becomes one failing test: in CI nothing
 * may quietly not run.
 */
export function describeWith(names: readonly ServiceName[], title: string, body: () => void): void {
  const missing = missingServices(names);
  if (!missing) {
    describe(title, body);
    return;
  }
  if (isCI()) {
    describe(title, () => {
      it(`needs ${names.join(", ")}`, () => {
        throw new Error(`CI (CI=true or CI=1) and ${missing}`);
      });
    });
    return;
  }
  console.warn(`[gw-testing] skipping "${title}": ${missing}; ${remedies(names)}`);
  describe.skip(`${title} [skipped: ${missing}]`, body);
}

/** One test that needs real services; same rules as `describeWith`. */
export function itWith(
  names: readonly ServiceName[],
  title: string,
  fn: TestFunction,
  timeoutMs?: number,
): void {
  const missing = missingServices(names);
  if (!missing) {
    it(title, fn, timeoutMs);
    return;
  }
  if (isCI()) {
    it(title, () => {
      throw new Error(`CI (CI=true or CI=1) and ${missing}`);
    });
    return;
  }
  console.warn(`[gw-testing] skipping "${title}": ${missing}; ${remedies(names)}`);
  it.skip(`${title} [skipped: ${missing}]`, fn);
}

function remedies(names: readonly ServiceName[]): string {
  const services = testServices();
  return names
    .filter((name) => services[name].status !== "available")
    .map((name) => `${name}: ${SERVICE_REMEDY[name]}`)
    .join("; ");
}
