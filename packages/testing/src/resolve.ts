import type { NotLaunched, Started } from "./launchers.js";
import {
  type ResolvedServices,
  SERVICE_ENV,
  SERVICE_NAMES,
  type ServiceName,
  type ServiceSource,
  type ServiceState,
  STANDARD_ADDRESS,
} from "./services.js";

/** Everything resolution touches, injected so the order can be tested without real services. */
export interface ResolveDeps {
  env: Record<string, string | undefined>;
  answers: Record<ServiceName, (address: string) => Promise<boolean>>;
  /** The broker `infra/kafka/kafka.sh start` recorded in `.kafka/broker.env`, if any. */
  recordedKafka(): string | undefined;
  dockerAvailable(): Promise<boolean>;
  containers: Record<ServiceName, () => Promise<Started>>;
  launchers: Record<ServiceName, () => Promise<Started | NotLaunched>>;
  log(message: string): void;
}

export interface Resolution {
  state: ServiceState;
  /** Set when this run started the service and must stop it. */
  stop?: () => Promise<void>;
}

/** Values of a TEST_* variable that switch a service off for the run instead of pointing at one. */
const DISABLED = new Set(["off", "none", "skip", "0", "false"]);

/**
 * One service, in the order ARCHITECTURE.md gives: the TEST_* variable → the standard loopback port
 * (and, for Kafka, the broker recorded by infra/kafka) → testcontainers when Docker answers → a local
 * launcher → unavailable, with every step's reason.
 */
export async function resolveService(name: ServiceName, deps: ResolveDeps): Promise<Resolution> {
  const variable = SERVICE_ENV[name];
  const configured = deps.env[variable]?.trim();
  if (configured) {
    if (DISABLED.has(configured.toLowerCase()))
      return unavailable(`${name} disabled by ${variable}=${configured}`);
    // An explicit address is never silently replaced by another service.
    if (await deps.answers[name](configured)) return available(configured, "env", `${variable}`);
    return unavailable(`${variable}=${redact(configured)} does not answer`);
  }

  const tried: string[] = [];
  const standard = STANDARD_ADDRESS[name];
  if (await deps.answers[name](standard)) return available(standard, "standard-port", "standard port");
  tried.push(`nothing answers at ${redact(standard)}`);

  if (name === "kafka") {
    const recorded = deps.recordedKafka();
    if (recorded && (await deps.answers.kafka(recorded)))
      return available(recorded, "recorded", ".kafka/broker.env (infra/kafka/kafka.sh start)");
    tried.push(
      recorded ? `.kafka/broker.env names ${recorded}, which does not answer` : "no .kafka/broker.env",
    );
  }

  if (await deps.dockerAvailable()) {
    try {
      const started = await deps.containers[name]();
      return { state: availableState(started.url, "testcontainers", started.detail), stop: started.stop };
    } catch (error) {
      tried.push(`testcontainers failed: ${message(error)}`);
    }
  } else {
    tried.push("no Docker engine answers (testcontainers skipped)");
  }

  try {
    const launched = await deps.launchers[name]();
    if ("unavailable" in launched) tried.push(launched.unavailable);
    else return { state: availableState(launched.url, "launcher", launched.detail), stop: launched.stop };
  } catch (error) {
    tried.push(`local launcher failed: ${message(error)}`);
  }
  return unavailable(tried.join("; "));
}

export interface ResolvedRun {
  services: ResolvedServices;
  stops: Array<() => Promise<void>>;
}

/** All services at once (launchers start in parallel); Docker is asked at most once. */
export async function resolveServices(deps: ResolveDeps): Promise<ResolvedRun> {
  let docker: Promise<boolean> | undefined;
  const shared: ResolveDeps = { ...deps, dockerAvailable: () => (docker ??= deps.dockerAvailable()) };
  const results = await Promise.all(SERVICE_NAMES.map((name) => resolveService(name, shared)));
  const services = Object.fromEntries(
    SERVICE_NAMES.map((name, index) => [name, (results[index] as Resolution).state]),
  ) as ResolvedServices;
  for (const name of SERVICE_NAMES) deps.log(describe(name, services[name]));
  return { services, stops: results.flatMap((result) => (result.stop ? [result.stop] : [])) };
}

export function describe(name: ServiceName, state: ServiceState): string {
  return state.status === "available"
    ? `${name}: ${redact(state.url)} (${state.detail})`
    : `${name}: unavailable: ${state.reason}`;
}

/** Hides a password in a connection URL before it is printed. */
export function redact(address: string): string {
  return address.replace(/(\/\/[^:/@]*:)[^@]*@/, "$1***@");
}

function available(url: string, source: "env" | "standard-port" | "recorded", detail: string): Resolution {
  return { state: availableState(url, source, detail) };
}

function availableState(url: string, source: ServiceSource, detail: string): ServiceState {
  return { status: "available", url, source, detail };
}

function unavailable(reason: string): Resolution {
  return { state: { status: "unavailable", reason } };
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
