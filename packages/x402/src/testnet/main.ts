// A facilitator for end-to-end tests, as its own process: starts the in-process test chains, serves the
// facilitator HTTP API on loopback and prints one JSON line describing them (see the package README).
// Usage: node packages/x402/dist/testnet/main.js [--port N] [--payers N] [--pay-to SOLANA_ADDRESS ...]
// (--pay-to opens that Solana account's USDC token account, which a payee needs before it can be paid.)
import { parseArgs } from "node:util";
import { getBase58Decoder, isAddress } from "@solana/kit";
import { evmRpcMethods } from "./evm/rpc.js";
import { startTestnet } from "./index.js";
import { serveFacilitator } from "./server.js";
import { solanaRpcMethods } from "./svm/rpc.js";

const { values } = parseArgs({
  options: {
    port: { type: "string", default: "0" },
    payers: { type: "string", default: "3" },
    "pay-to": { type: "string", multiple: true, default: [] },
  },
});
const port = Number(values.port);
const payers = Number(values.payers);
if (
  !Number.isInteger(port) ||
  port < 0 ||
  port > 65535 ||
  !Number.isInteger(payers) ||
  payers < 1 ||
  payers > 100
) {
  console.error("usage: main.js [--port 0-65535] [--payers 1-100] [--pay-to SOLANA_ADDRESS ...]");
  process.exit(2);
}

const started = performance.now();
const testnet = await startTestnet({ evm: { payers }, svm: { payers } });
for (const owner of values["pay-to"]) {
  if (!isAddress(owner)) {
    console.error(`--pay-to ${owner} is not a Solana address`);
    process.exit(2);
  }
  await testnet.svm.openTokenAccount(owner);
}
const server = await serveFacilitator({
  facilitator: testnet.facilitator,
  rpc: { evm: evmRpcMethods(testnet.evm), solana: solanaRpcMethods(testnet.svm.svm) },
  balanceOf: testnet.balanceOf,
  port,
});
const { evm, svm } = testnet;
const base58 = getBase58Decoder();
// The private keys are keys of these throw-away local chains, printed so the test process can pay.
const description = {
  url: server.url,
  networks: testnet.networks,
  assets: {
    [evm.network]: { address: evm.token, decimals: 6, extra: evm.tokenDomain },
    [svm.network]: { address: svm.mint, decimals: 6, extra: { feePayer: svm.feePayer } },
  },
  payers: {
    [evm.network]: evm.payers.map((p) => ({ address: p.account.address, privateKey: p.privateKey })),
    [svm.network]: svm.payers.map((p) => ({
      address: p.signer.address,
      secretKey: base58.decode(p.secretKey),
    })),
  },
  payees: { [evm.network]: evm.payee, [svm.network]: svm.payee },
  rpc: { [evm.network]: `${server.url}/rpc/evm`, [svm.network]: `${server.url}/rpc/solana` },
  balance: `${server.url}/balance`,
  startMs: Math.round(performance.now() - started),
};
process.stdout.write(`${JSON.stringify(description)}\n`);

async function stop(): Promise<void> {
  await server.close();
  await testnet.close();
  process.exit(0);
}
process.once("SIGTERM", () => void stop());
process.once("SIGINT", () => void stop());
