/**
 * Failure steering. A scenario comes either with one request (header `x-fake-scenario`) or from the server's
 * control endpoint (`POST /__fake/scenario`), which holds it for the next `times` matching requests.
 *
 * Header form: comma-separated scenarios, each `name;key=value;key=value`, e.g.
 * `x-fake-scenario: slow;ms=300, no-usage` or `fail;status=503`. JSON form: `{"name":"fail","status":503}`
 * or an array of those; the control endpoint also takes `times` and `path` (a path prefix to match).
 */
export type ScenarioName =
  | "slow"
  | "slow-stream"
  | "fail"
  | "rate-limit"
  | "drop-mid-stream"
  | "no-usage"
  | "hang"
  | "cache";

export const SCENARIO_NAMES: readonly ScenarioName[] = [
  "slow",
  "slow-stream",
  "fail",
  "rate-limit",
  "drop-mid-stream",
  "no-usage",
  "hang",
  "cache",
];

export interface Scenario {
  readonly name: ScenarioName;
  /** `slow`: delay before the first byte; `slow-stream`: delay between chunks. */
  readonly ms?: number;
  /** `fail`: the HTTP status (default 500). */
  readonly status?: number;
  /** `fail`: overrides the provider's default error message. */
  readonly message?: string;
  /** `rate-limit`: the `retry-after` header in seconds (default 1). */
  readonly retryAfter?: number;
  /** `drop-mid-stream`: chunks (or, unstreamed, half the body) sent before the socket is destroyed. */
  readonly after?: number;
}

export interface ServerScenario extends Scenario {
  /** How many more matching requests it applies to; unlimited when absent. */
  readonly times?: number;
  /** Applies only to requests whose path starts with this. */
  readonly path?: string;
}

/** What the scenarios mean for one request, after combining them. */
export interface Steering {
  readonly delayMs: number;
  readonly chunkDelayMs: number;
  readonly failure: {
    readonly status: number;
    readonly message?: string;
    readonly retryAfter?: number;
  } | null;
  /** Chunks to send before dropping the connection; `null` when not dropping. */
  readonly dropAfter: number | null;
  readonly noUsage: boolean;
  readonly hang: boolean;
  /** Report prompt caching: a prefix seen before is read from the cache (see core/prompt-cache.ts). */
  readonly cache: boolean;
}

export const NO_STEERING: Steering = {
  delayMs: 0,
  chunkDelayMs: 0,
  failure: null,
  dropAfter: null,
  noUsage: false,
  hang: false,
  cache: false,
};

export class ScenarioError extends Error {}

export function steeringFor(scenarios: readonly Scenario[]): Steering {
  let steering: Steering = NO_STEERING;
  for (const s of scenarios) {
    switch (s.name) {
      case "slow":
        steering = { ...steering, delayMs: s.ms ?? 1000 };
        break;
      case "slow-stream":
        steering = { ...steering, chunkDelayMs: s.ms ?? 200 };
        break;
      case "fail":
        steering = {
          ...steering,
          failure: { status: s.status ?? 500, ...(s.message ? { message: s.message } : {}) },
        };
        break;
      case "rate-limit":
        steering = {
          ...steering,
          failure: {
            status: 429,
            retryAfter: s.retryAfter ?? 1,
            ...(s.message ? { message: s.message } : {}),
          },
        };
        break;
      case "drop-mid-stream":
        // -1 lets the response pick "about half way", which depends on how long it is.
        steering = { ...steering, dropAfter: s.after ?? -1 };
        break;
      case "no-usage":
        steering = { ...steering, noUsage: true };
        break;
      case "hang":
        steering = { ...steering, hang: true };
        break;
      case "cache":
        steering = { ...steering, cache: true };
        break;
    }
  }
  return steering;
}

export function parseScenarioHeader(header: string): Scenario[] {
  return header
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part.length > 0)
    .map((part) => {
      const [name = "", ...params] = part.split(";").map((p) => p.trim());
      const fields: Record<string, unknown> = { name };
      for (const param of params) {
        const eq = param.indexOf("=");
        if (eq <= 0) throw new ScenarioError(`x-fake-scenario: parameter without value: ${param}`);
        fields[param.slice(0, eq).trim()] = param.slice(eq + 1).trim();
      }
      return parseScenario(fields);
    });
}

/** Parses the control endpoint's JSON (one scenario or an array of them). */
export function parseServerScenarios(json: unknown): ServerScenario[] {
  const list = Array.isArray(json) ? json : [json];
  return list.map((item) => {
    if (typeof item !== "object" || item === null) throw new ScenarioError("scenario must be a JSON object");
    const fields = item as Record<string, unknown>;
    const scenario = parseScenario(fields);
    const times = optionalInt(fields, "times");
    const path = fields.path;
    if (path !== undefined && typeof path !== "string")
      throw new ScenarioError("scenario path must be a string");
    return {
      ...scenario,
      ...(times !== undefined ? { times } : {}),
      ...(path !== undefined ? { path } : {}),
    };
  });
}

function parseScenario(fields: Record<string, unknown>): Scenario {
  const name = SCENARIO_NAMES.find((n) => n === fields.name);
  if (!name) {
    throw new ScenarioError(
      `unknown scenario ${JSON.stringify(fields.name)}; known: ${SCENARIO_NAMES.join(", ")}`,
    );
  }
  const ms = optionalInt(fields, "ms");
  const status = optionalInt(fields, "status");
  const after = optionalInt(fields, "after");
  const retryAfter = optionalInt(fields, "retry_after") ?? optionalInt(fields, "retryAfter");
  const message = fields.message;
  if (status !== undefined && (status < 400 || status > 599))
    throw new ScenarioError("status must be 400-599");
  return {
    name,
    ...(ms !== undefined ? { ms } : {}),
    ...(status !== undefined ? { status } : {}),
    ...(after !== undefined ? { after } : {}),
    ...(retryAfter !== undefined ? { retryAfter } : {}),
    ...(typeof message === "string" ? { message } : {}),
  };
}

function optionalInt(fields: Record<string, unknown>, key: string): number | undefined {
  const raw = fields[key];
  if (raw === undefined) return undefined;
  const value =
    typeof raw === "number" ? raw : typeof raw === "string" && raw !== "" ? Number(raw) : Number.NaN;
  if (!Number.isInteger(value) || value < 0) throw new ScenarioError(`${key} must be a non-negative integer`);
  return value;
}

/** Server-held scenarios, consumed by the requests they match. */
export class ScenarioStore {
  #active: { scenario: ServerScenario; remaining: number }[] = [];

  set(scenarios: readonly ServerScenario[]): void {
    this.#active = scenarios.map((scenario) => ({
      scenario,
      remaining: scenario.times ?? Number.POSITIVE_INFINITY,
    }));
  }

  reset(): void {
    this.#active = [];
  }

  list(): ServerScenario[] {
    return this.#active.map(({ scenario, remaining }) =>
      Number.isFinite(remaining) ? { ...scenario, times: remaining } : scenario,
    );
  }

  /** The scenarios for a request to `path`, counting one use of each. */
  take(path: string): Scenario[] {
    const taken: Scenario[] = [];
    for (const entry of this.#active) {
      if (entry.scenario.path !== undefined && !path.startsWith(entry.scenario.path)) continue;
      taken.push(entry.scenario);
      entry.remaining -= 1;
    }
    this.#active = this.#active.filter((entry) => entry.remaining > 0);
    return taken;
  }
}
