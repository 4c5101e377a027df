import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpFacilitator } from "../http-facilitator.js";
import { evmAgent } from "../testing/official-clients.js";
import { evmRpcMethods } from "./evm/rpc.js";
import { type FacilitatorServer, serveFacilitator, startTestnet, type Testnet } from "./index.js";
import { solanaRpcMethods } from "./svm/rpc.js";

let testnet: Testnet;
let server: FacilitatorServer;

beforeAll(async () => {
  testnet = await startTestnet({ evm: { payers: 1 }, svm: { payers: 1 } });
  server = await serveFacilitator({
    facilitator: testnet.facilitator,
    rpc: { evm: evmRpcMethods(testnet.evm), solana: solanaRpcMethods(testnet.svm.svm) },
    balanceOf: testnet.balanceOf,
  });
});
afterAll(async () => {
  await server?.close();
  await testnet?.close();
});

async function post(path: string, body: string): Promise<{ status: number; json: unknown }> {
  const response = await fetch(`${server.url}${path}`, {
    method: "POST",
    body,
    headers: { "content-type": "application/json" },
  });
  return { status: response.status, json: await response.json() };
}

async function rpc(name: string, method: string, params: unknown[] = []): Promise<Record<string, unknown>> {
  const { json } = await post(`/rpc/${name}`, JSON.stringify({ jsonrpc: "2.0", id: 7, method, params }));
  return json as Record<string, unknown>;
}

describe("the testnet's facilitator HTTP API", () => {
  it("lists both networks as exact v2, with the Solana fee payer and the signers", async () => {
    const supported = await new HttpFacilitator({ url: server.url }).getSupported();
    expect(supported.kinds).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ x402Version: 2, scheme: "exact", network: "eip155:84532" }),
        {
          x402Version: 2,
          scheme: "exact",
          network: testnet.svm.network,
          extra: { feePayer: testnet.svm.feePayer },
        },
      ]),
    );
    expect(supported.signers["solana:*"]).toEqual([testnet.svm.feePayer]);
  });

  it("verifies and settles an official client's payment through HttpFacilitator; /balance shows it arrived", async () => {
    const facilitator = new HttpFacilitator({ url: server.url });
    const requirements = testnet.requirements(testnet.evm.network, "25000");
    const payer = testnet.evm.payers[0]?.account;
    if (!payer) throw new Error("no payer");
    const payload = await evmAgent(payer)(requirements);
    expect(await facilitator.verify(payload, requirements)).toMatchObject({
      isValid: true,
      payer: payer.address,
    });
    expect(await facilitator.settle(payload, requirements)).toMatchObject({
      success: true,
      payer: payer.address,
    });
    expect(await facilitator.settle(payload, requirements)).toMatchObject({
      success: false,
      errorReason: "invalid_exact_evm_nonce_already_used",
    });
    const response = await fetch(`${server.url}/balance?network=eip155:84532&owner=${testnet.evm.payee}`);
    expect(await response.json()).toEqual({
      network: "eip155:84532",
      owner: testnet.evm.payee,
      balance: "25000",
    });
  });

  it("answers a request that is not the documented shape with 400, an unknown path with 404", async () => {
    expect((await post("/verify", "not json")).status).toBe(400);
    expect((await post("/settle", JSON.stringify({ x402Version: 2, paymentPayload: {} }))).status).toBe(400);
    expect(
      (await post("/settle", JSON.stringify({ paymentPayload: { payload: {} }, paymentRequirements: {} })))
        .status,
    ).toBe(400);
    expect((await post("/verify", "x".repeat(1024 * 1024 + 1))).status).toBe(400);
    expect((await fetch(`${server.url}/balance?network=eip155:84532&owner=nobody`)).status).toBe(400);
    expect((await fetch(`${server.url}/balance?network=eip155:1&owner=${testnet.evm.payee}`)).status).toBe(
      400,
    );
    expect((await fetch(`${server.url}/elsewhere`)).status).toBe(404);
  });

  it("serves the chains' JSON-RPC: Ethereum reads pass through, administrative methods do not", async () => {
    expect(await rpc("evm", "eth_chainId")).toEqual({ jsonrpc: "2.0", id: 7, result: "0x14a34" });
    expect(await rpc("evm", "hardhat_setBalance", [testnet.evm.payee, "0x1"])).toMatchObject({
      error: { code: -32601 },
    });
  });

  it("serves the Solana JSON-RPC an x402 client needs: the mint's account and a recent blockhash", async () => {
    const mint = await rpc("solana", "getAccountInfo", [testnet.svm.mint, { encoding: "base64" }]);
    expect(mint.result).toMatchObject({
      value: { owner: "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA", executable: false },
    });
    const blockhash = await rpc("solana", "getLatestBlockhash");
    expect(blockhash.result).toMatchObject({ value: { blockhash: testnet.svm.svm.latestBlockhash() } });
    expect(await rpc("solana", "getAccountInfo", ["not-an-address"])).toMatchObject({
      error: { code: -32602 },
    });
    expect(await rpc("solana", "requestAirdrop", [testnet.svm.payee, 1])).toMatchObject({
      error: { code: -32601 },
    });
  });
});
