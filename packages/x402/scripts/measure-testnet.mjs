// Measures the test chains: start time, and verify / settle latency of official-client payments, in
// process and over the facilitator HTTP API. Run after a build: `node scripts/measure-testnet.mjs [N]`.
import { x402Client } from "@x402/core/client";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { ExactSvmScheme } from "@x402/svm/exact/client";
import { HttpFacilitator } from "../dist/index.js";
import { serveFacilitator, startTestnet } from "../dist/testnet/index.js";
import { solanaRpcMethods } from "../dist/testnet/svm/rpc.js";

const rounds = Number(process.argv[2] ?? 10);
const started = performance.now();
const testnet = await startTestnet({ evm: { payers: 1 }, svm: { payers: 1 } });
const startMs = performance.now() - started;
const server = await serveFacilitator({
  facilitator: testnet.facilitator,
  rpc: { solana: solanaRpcMethods(testnet.svm.svm) },
});
const http = new HttpFacilitator({ url: server.url });
const resource = { url: "https://gateway.test/v1/chat/completions" };
const agents = {
  evm: new x402Client().register("eip155:*", new ExactEvmScheme(testnet.evm.payers[0].account)),
  svm: new x402Client().register(
    "solana:*",
    new ExactSvmScheme(testnet.svm.payers[0].signer, { rpcUrl: `${server.url}/rpc/solana` }),
  ),
};

async function timed(fn) {
  const t0 = performance.now();
  const result = await fn();
  return [performance.now() - t0, result];
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const report = { startMs: Math.round(startMs), rounds };
for (const [family, network] of [
  ["evm", testnet.evm.network],
  ["svm", testnet.svm.network],
]) {
  for (const [via, facilitator] of [
    ["in-process", testnet.facilitator],
    ["http", http],
  ]) {
    const verify = [];
    const settle = [];
    for (let i = 0; i < rounds; i++) {
      const requirements = testnet.requirements(network, "10000");
      const payload = await agents[family].createPaymentPayload({
        x402Version: 2,
        resource,
        accepts: [requirements],
      });
      const [v, verdict] = await timed(() => facilitator.verify(payload, requirements));
      const [s, settled] = await timed(() => facilitator.settle(payload, requirements));
      if (!verdict.isValid || !settled.success)
        throw new Error(`${family} ${via}: ${JSON.stringify([verdict, settled])}`);
      verify.push(v);
      settle.push(s);
    }
    report[`${family} ${via}`] = {
      verifyMedianMs: Number(median(verify).toFixed(1)),
      settleMedianMs: Number(median(settle).toFixed(1)),
      settleMaxMs: Number(Math.max(...settle).toFixed(1)),
    };
  }
}
console.log(JSON.stringify(report, null, 2));
await server.close();
await testnet.close();
