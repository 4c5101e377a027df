import fc from "fast-check";
import { expect } from "vitest";
import type { Answer } from "./wire.js";

/**
 * Cases per property. Test-only (read by these suites, not by any app): CI keeps the default, small
 * enough for each suite to finish in well under 30 s; a deeper local run sets e.g. HOSTILE_CASES=500.
 */
export const CASES = positive(process.env.HOSTILE_CASES, 20);
/**
 * One seed for the whole run, printed when the suite starts: HOSTILE_SEED=<seed> replays the run (every
 * property draws from it), otherwise a new one is drawn. fast-check also prints the seed of a failure.
 */
export const SEED = seedOf(process.env.HOSTILE_SEED);
console.log(`[hostile] seed ${SEED} (HOSTILE_SEED=${SEED} replays this run)`);

function seedOf(value: string | undefined): number {
  const parsed = Number(value);
  if (value !== undefined && value.trim() !== "" && Number.isInteger(parsed)) return parsed;
  return Math.floor(Math.random() * 2 ** 31) * (Math.random() < 0.5 ? -1 : 1);
}

/**
 * Cases for each of `kinds` kinds of input, so that a property's CASES are spread over every kind and no
 * kind is left undrawn: at least 2 each.
 */
export function casesPerKind(kinds: number): number {
  return Math.max(2, Math.ceil(CASES / Math.max(kinds, 1)));
}

/** HOSTILE_VERBOSE=1 prints every case's answer and time (test-only, for finding a slow or hung case). */
const VERBOSE = process.env.HOSTILE_VERBOSE === "1";

function positive(value: string | undefined, fallback: number): number {
  const parsed = Number(value);
  return Number.isInteger(parsed) && parsed > 0 ? parsed : fallback;
}

/** The error shapes of the gateway's surfaces (management routes use the OpenAI-style envelope). */
export type ErrorShape = "openai" | "anthropic" | "gemini";

/**
 * What `refused` answers look like: the surface's own error body. A 400 with no body is what Node's
 * HTTP parser itself answers to a request line or header it cannot parse (a bare CR or LF in a header);
 * the application never sees those, so only that case is allowed without the shape.
 */
export function expectErrorShape(shape: ErrorShape, answer: Answer, label: string): void {
  if (answer.status === 400 && answer.text === "" && answer.headers.connection === "close") return;
  const body = answer.json;
  const message = `${label}: ${answer.status} ${answer.text.slice(0, 300)}`;
  if (shape === "anthropic") {
    expect(body, message).toMatchObject({
      type: "error",
      error: { type: expect.any(String), message: expect.any(String) },
    });
  } else if (shape === "gemini") {
    expect(body, message).toMatchObject({
      error: { code: answer.status, message: expect.any(String), status: expect.any(String) },
    });
  } else {
    expect(body, message).toMatchObject({ error: { type: expect.any(String), message: expect.any(String) } });
  }
}

/** One route family's tally, printed at the end of its suite for the report. */
export class Tally {
  readonly #statuses = new Map<number, number>();
  readonly #kinds = new Map<string, number>();
  #cases = 0;
  #serverErrors = 0;
  #started: number | undefined;

  constructor(readonly name: string) {}

  record(kind: string, status: number): void {
    this.#started ??= Date.now();
    this.#cases++;
    if (status >= 500) this.#serverErrors++;
    this.#statuses.set(status, (this.#statuses.get(status) ?? 0) + 1);
    this.#kinds.set(kind, (this.#kinds.get(kind) ?? 0) + 1);
  }

  get cases(): number {
    return this.#cases;
  }

  get serverErrors(): number {
    return this.#serverErrors;
  }

  summary(): string {
    const statuses = [...this.#statuses]
      .sort(([a], [b]) => a - b)
      .map(([status, count]) => `${status}×${count}`);
    const seconds = ((Date.now() - (this.#started ?? Date.now())) / 1000).toFixed(1);
    return `[hostile] ${this.name}: ${this.#cases} cases, 5xx ${this.#serverErrors}, statuses ${statuses.join(" ")}, ${seconds} s`;
  }
}

export interface Target {
  shape: ErrorShape;
  tally: Tally;
  /**
   * What a refused call must leave as it was: the fake upstreams' request count for an inference
   * surface (nothing forwarded, so nothing billed), the stored keys, credentials and ledger for a
   * management route. Compared before and after every refused case.
   */
  state(): Promise<unknown>;
  /**
   * The provider proxy (and a native surface's pass-through) forwards bodies it cannot fully validate;
   * the provider's own refusal of one (relayed as sent) is not the gateway's, and leaves the upstream
   * count one higher. Says whether an answer is such a relayed provider refusal, given the state before
   * and after the call: judged by what the fake upstream received and answered (counted on its side),
   * never by the answer alone, since the gateway's own answers carry the same headers.
   */
  relayed?(answer: Answer, before: unknown, after: unknown): boolean;
}

/**
 * The one assertion every case gets: an answer below 500, a refusal in the surface's error shape, and
 * a refusal that changed nothing.
 */
export async function expectHandled(
  target: Target,
  kind: string,
  call: () => Promise<Answer>,
): Promise<Answer> {
  // Only the suite's own calls change the state, so the state read after a refusal is the next case's
  // "before": one read per case instead of two.
  const before = lastState.has(target) ? lastState.get(target) : await target.state();
  const started = Date.now();
  const answer = await call();
  target.tally.record(kind, answer.status);
  if (VERBOSE)
    console.log(`[hostile] ${target.tally.name} ${kind}: ${answer.status} in ${Date.now() - started} ms`);
  expect(answer.status, `${kind}: ${answer.status} ${answer.text.slice(0, 300)}`).toBeLessThan(500);
  lastState.delete(target);
  if (answer.status >= 400) {
    expectErrorShape(target.shape, answer, kind);
    const after = await target.state();
    if (!target.relayed?.(answer, before, after)) {
      expect(after, `${kind}: a refused call changed stored state`).toEqual(before);
    }
    lastState.set(target, after);
  }
  return answer;
}

const lastState = new WeakMap<Target, unknown>();

/** fast-check's assert with the suite's case count (and seed, when replaying). */
export function assertProperty<T>(
  arbitrary: fc.Arbitrary<T>,
  check: (value: T) => Promise<unknown>,
  runs = CASES,
): Promise<void> {
  return fc.assert(
    fc.asyncProperty(arbitrary, async (value) => {
      await check(value);
    }),
    { numRuns: runs, seed: SEED },
  );
}
