// The top frames of a V8 CPU profile (`--cpu-prof`), by self time, and the share of each part of the
// stack: the gateway's own code (apps/, packages/), undici, Node's own JavaScript (node:…), native code
// and the garbage collector. For the notes of the performance issues ("top profile frames before and
// after"): `BENCH_EDGE_NODE_OPTIONS="--cpu-prof --cpu-prof-dir=/tmp/prof" node bench/dist/run.js …`, then
//
//   node bench/scripts/profile-top.mjs /tmp/prof/<file>.cpuprofile [top=25]
import { readFileSync } from "node:fs";

const file = process.argv[2];
if (!file) throw new Error("usage: profile-top.mjs <file.cpuprofile> [top]");
const top = Number(process.argv[3] ?? 25);
const profile = JSON.parse(readFileSync(file, "utf8"));
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const interval = new Map();
// Each sample is one node (the frame on top); its time is the gap to the next sample.
for (let index = 0; index < profile.samples.length; index++) {
  const delta = profile.timeDeltas[index + 1] ?? 0;
  const id = profile.samples[index];
  interval.set(id, (interval.get(id) ?? 0) + delta);
}
const frames = new Map();
const parts = new Map();
let total = 0;
for (const [id, micros] of interval) {
  const frame = byId.get(id).callFrame;
  if (frame.functionName === "(idle)" || (frame.functionName === "(program)" && micros === 0)) continue;
  total += micros;
  const where = frame.url ? `${shorten(frame.url)}:${frame.lineNumber + 1}` : "";
  const name = `${frame.functionName || "(anonymous)"} ${where}`.trim();
  frames.set(name, (frames.get(name) ?? 0) + micros);
  const part = partOf(frame);
  parts.set(part, (parts.get(part) ?? 0) + micros);
}
const share = (micros) => `${((micros / total) * 100).toFixed(1)}%`;
console.log(`busy samples: ${(total / 1000).toFixed(0)} ms (idle excluded)`);
console.log("\nby part of the stack:");
for (const [part, micros] of [...parts].sort((a, b) => b[1] - a[1]))
  console.log(`  ${share(micros).padStart(6)}  ${part}`);
console.log(`\ntop ${top} frames by self time:`);
for (const [name, micros] of [...frames].sort((a, b) => b[1] - a[1]).slice(0, top)) {
  console.log(`  ${share(micros).padStart(6)}  ${name}`);
}

function shorten(url) {
  const at = url.search(/\/(apps|packages|node_modules)\//);
  return at >= 0 ? url.slice(at + 1).replace(/^.*node_modules\/\.pnpm\/[^/]+\/node_modules\//, "") : url;
}

function partOf(frame) {
  if (frame.functionName === "(garbage collector)") return "garbage collector";
  if (frame.functionName === "(program)") return "V8/native (program)";
  const url = frame.url ?? "";
  if (url.includes("/undici/")) return "undici";
  if (url.includes("node_modules")) return "other dependencies";
  if (/\/(apps|packages)\//.test(url)) return "gateway code (apps/, packages/)";
  if (url.startsWith("node:")) return "Node's JavaScript (node:…)";
  if (url === "") return "native (no script)";
  return "other";
}
