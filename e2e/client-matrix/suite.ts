import { mkdirSync, writeFileSync } from "node:fs";
import { afterAll, beforeAll, beforeEach, it } from "vitest";
import type { Plane } from "../cloud-gateway.js";
import { type FormatsGateway, startFormatsGateway } from "../provider-formats.js";
import { MATRIX_CASES } from "./cases.js";
import { type Format, type MatrixCase, MODELS } from "./context.js";
import { knownFailure } from "./known-failures.js";

// The client matrix on one plane: one gateway start (with the three strict fakes) for the whole file,
// then every case once per wire format. Each case's outcome is written to
// artifacts/client-matrix/<plane>.json; `node scripts/compat-table.mjs` turns the two planes' files
// into docs/client-matrix.json and the table in docs/openrouter-compatibility.md.

export type Status = "pass" | "fail" | "known";

export interface Outcome {
  readonly sdk: string;
  readonly call: string;
  readonly format: Format;
  readonly status: Status;
  /** For "fail", the error on one line (at most 200 characters); for "known", the documented reason. */
  readonly reason?: string;
  readonly decision?: string;
}

const ARTIFACTS = new URL("../../artifacts/client-matrix/", import.meta.url);

export const matrixSuite = (plane: Plane) => () => {
  let gateway: FormatsGateway;
  const outcomes: Outcome[] = [];
  let started = 0;

  beforeAll(async () => {
    started = Date.now();
    gateway = await startFormatsGateway(plane);
  }, 240_000);

  beforeEach(() => {
    for (const fake of [...Object.values(gateway.fakes), gateway.search]) fake.clearRequests();
  });

  afterAll(async () => {
    await gateway?.stop();
    // A partial run (a filter, a bail) would record a table with holes: only a whole run is written.
    if (outcomes.length !== MATRIX_CASES.length * Object.keys(MODELS).length) return;
    mkdirSync(ARTIFACTS, { recursive: true });
    // The plane's start included: what the file costs CI.
    const run = { plane, seconds: Math.round((Date.now() - started) / 1000), outcomes };
    writeFileSync(new URL(`${plane}.json`, ARTIFACTS), `${JSON.stringify(run, null, 2)}\n`);
  });

  for (const matrixCase of MATRIX_CASES)
    for (const format of Object.keys(MODELS) as Format[])
      it(`${matrixCase.sdk} ${matrixCase.call} on ${MODELS[format]} (${format})`, async () => {
        const { outcome, error } = await runCase(matrixCase, format, gateway);
        outcomes.push(outcome);
        // A failure is recorded, then the test fails with the error itself.
        if (error !== undefined) throw error;
      });
};

interface Ran {
  readonly outcome: Outcome;
  readonly error?: unknown;
}

async function runCase(matrixCase: MatrixCase, format: Format, gateway: FormatsGateway): Promise<Ran> {
  const { sdk, call } = matrixCase;
  const context = {
    url: gateway.url,
    apiKey: gateway.apiKey,
    format,
    model: MODELS[format],
    fake: gateway.fakes[format],
    search: gateway.search,
  };
  const known = knownFailure(sdk, call, format);
  const failure = await matrixCase.run(context).then(
    () => undefined,
    (error: unknown) => error,
  );
  if (known) {
    if (failure === undefined)
      throw new Error(`${sdk} ${call} (${format}) passes: take it off KNOWN_FAILURES`);
    return {
      outcome: { sdk, call, format, status: "known", reason: known.reason, decision: known.decision },
    };
  }
  if (failure === undefined) return { outcome: { sdk, call, format, status: "pass" } };
  // One line for the table's note (a zod error's message is a multi-line JSON array).
  const text = failure instanceof Error ? `${failure.name}: ${failure.message}` : String(failure);
  const reason = text.replace(/\s+/g, " ").slice(0, 200);
  return { outcome: { sdk, call, format, status: "fail", reason }, error: failure };
}
