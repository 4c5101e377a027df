// The generations consumer's `unnest` parameters built two ways, for one batch of 600 records with the
// record's column mix (15 text, 15 integer, 9 numeric, 4 boolean, one jsonb, one timestamptz): pg's own
// array serialisation (`prepareValue`, what pg does with a JS array) and `arrayLiteral`
// (apps/generations/src/db/array-literal.ts). Prints ms per batch, each way twice, interleaved. Not a
// test: the numbers depend on the machine.
//
//   cd /work/main && source scripts/env.sh && pnpm build && node bench/scripts/array-literal.mjs
import { createRequire } from "node:module";
import { arrayLiteral } from "../../apps/generations/dist/db/array-literal.js";

// pg is the db package's dependency; its array serialisation is lib/utils.js beside its entry point.
const fromDb = createRequire(new URL("../../packages/db/package.json", import.meta.url));
const pgUtils = createRequire(fromDb.resolve("pg"))("./utils.js");

const records = Array.from({ length: 600 }, (_, index) => ({
  model: "openai/gpt-4o-mini",
  streamed: index % 2 === 0,
  tokens: 123 + index,
  cost: "0.000123456789",
  attempts: JSON.stringify([{ provider: "openai", model: "gpt-4o-mini", status: 200, latency_ms: 120 }]),
  createdAt: new Date().toISOString(),
}));
const columns = [
  ...Array(15).fill((record) => record.model),
  ...Array(15).fill((record) => record.tokens),
  ...Array(9).fill((record) => record.cost),
  ...Array(4).fill((record) => record.streamed),
  (record) => record.attempts,
  (record) => record.createdAt,
];
const ways = {
  "pg prepareValue": () => columns.map((column) => pgUtils.prepareValue(records.map(column))),
  arrayLiteral: () => columns.map((column) => arrayLiteral(records.map(column))),
};
// pg writes each parameter's bytes: measured here too, so a lazily joined string pays its flattening.
const bytes = (parameters) => parameters.reduce((sum, parameter) => sum + Buffer.byteLength(parameter), 0);
for (const name of [...Object.keys(ways), ...Object.keys(ways)]) {
  const build = ways[name];
  for (let round = 0; round < 50; round++) bytes(build());
  const started = process.hrtime.bigint();
  const rounds = 300;
  for (let round = 0; round < rounds; round++) bytes(build());
  const ms = Number(process.hrtime.bigint() - started) / rounds / 1e6;
  console.log(`${name.padEnd(16)} ${ms.toFixed(3)} ms per batch of ${records.length}`);
}
