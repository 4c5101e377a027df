import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { createKeyPairSignerFromBytes, generateKeyPairSigner, getBase58Encoder } from "@solana/kit";
import type { Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpFacilitator } from "../http-facilitator.js";
import { evmAgent, svmAgent } from "../testing/official-clients.js";
import type { Network, PaymentRequirements } from "../types.js";

// The built entry point, as an e2e test starts it (CI builds before it tests).
const MAIN = fileURLToPath(new URL("../../dist/testnet/main.js", import.meta.url));

interface Description {
  url: string;
  networks: Network[];
  assets: Record<string, { address: string; decimals: number; extra: Record<string, unknown> }>;
  payers: Record<string, Array<{ address: string; privateKey?: Hex; secretKey?: string }>>;
  payees: Record<string, string>;
  rpc: Record<string, string>;
  balance: string;
  startMs: number;
}

let child: ChildProcess;
let description: Description;
let solanaPayee: string;

beforeAll(async () => {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: build @gw/x402 first`);
  solanaPayee = (await generateKeyPairSigner()).address;
  child = spawn(process.execPath, [MAIN, "--payers", "1", "--pay-to", solanaPayee], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const [line] = (await once(lines, "line")) as [string];
  description = JSON.parse(line);
});
afterAll(() => {
  if (child.exitCode === null) child.kill("SIGKILL");
});

function requirements(network: Network, payTo: string): PaymentRequirements {
  const asset = description.assets[network];
  if (!asset) throw new Error(`no asset on ${network}`);
  return {
    scheme: "exact",
    network,
    asset: asset.address,
    amount: "10000",
    payTo,
    maxTimeoutSeconds: 300,
    extra: asset.extra,
  };
}

async function balance(network: string, owner: string): Promise<string> {
  const response = await fetch(`${description.balance}?network=${network}&owner=${owner}`);
  return ((await response.json()) as { balance: string }).balance;
}

describe("node dist/testnet/main.js, the facilitator process for e2e tests", () => {
  it("prints one JSON line: facilitator URL, networks, assets, payers with their keys, payees, RPC and balance URLs", () => {
    expect(description.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(description.networks).toEqual(["eip155:84532", "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1"]);
    expect(description.assets["eip155:84532"]).toEqual({
      address: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
      decimals: 6,
      extra: { name: "USDC", version: "2" },
    });
    expect(description.payers["eip155:84532"]).toHaveLength(1);
    expect(description.rpc["solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1"]).toBe(`${description.url}/rpc/solana`);
  });

  it("settles an EVM payment made with the printed key over HTTP, and the balance endpoint shows it", async () => {
    const network = "eip155:84532";
    const key = description.payers[network]?.[0]?.privateKey;
    if (!key) throw new Error("no EVM payer key");
    const payTo = description.payees[network] ?? "";
    const wanted = requirements(network, payTo);
    const payload = await evmAgent(privateKeyToAccount(key))(wanted);
    const settled = await new HttpFacilitator({ url: description.url }).settle(payload, wanted);
    expect(settled).toMatchObject({ success: true, network });
    expect(await balance(network, payTo)).toBe("10000");
  });

  it("settles a Solana payment to a --pay-to account, made with the printed secret key and the printed RPC", async () => {
    const network = "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1";
    const secret = description.payers[network]?.[0]?.secretKey;
    const rpc = description.rpc[network];
    if (!secret || !rpc) throw new Error("no Solana payer key or RPC");
    const signer = await createKeyPairSignerFromBytes(getBase58Encoder().encode(secret));
    const wanted = requirements(network, solanaPayee);
    const payload = await svmAgent(signer, rpc)(wanted);
    const settled = await new HttpFacilitator({ url: description.url }).settle(payload, wanted);
    expect(settled).toMatchObject({ success: true, network, payer: signer.address });
    expect(await balance(network, solanaPayee)).toBe("10000");
  });

  it("stops on SIGTERM with exit code 0", async () => {
    child.kill("SIGTERM");
    const [code] = await once(child, "exit");
    expect(code).toBe(0);
  });
});
