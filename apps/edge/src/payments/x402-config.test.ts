import { ConfigError } from "@gw/config";
import { describe, expect, it } from "vitest";
import { loadX402Config } from "./x402-config.js";

const EVM = "0x2096000000000000000000000000000000000001";
const SOL = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";
const enabled = {
  X402_ENABLED: "true",
  X402_FACILITATOR_URL: "http://127.0.0.1:9/",
  X402_PAY_TO_EVM: EVM,
  PUBLIC_BASE_URL: "https://gw.example/",
};

function issuesOf(env: Record<string, string>): string {
  try {
    loadX402Config(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error("expected a ConfigError");
}

describe("X402_* configuration", () => {
  it("is off by default, whatever else is set", () => {
    expect(loadX402Config({})).toBeUndefined();
    expect(loadX402Config({ X402_NETWORKS: "nonsense" })).toBeUndefined();
  });

  it("defaults to Base Sepolia and top-ups of 1, 5 and 10 USD", () => {
    expect(loadX402Config(enabled)).toEqual({
      facilitatorUrl: "http://127.0.0.1:9",
      networks: ["eip155:84532"],
      payToEvm: EVM,
      payToSolana: undefined,
      topupAmountsUsd: ["1", "5", "10"],
      assets: {},
      publicBaseUrl: "https://gw.example",
    });
  });

  it("requires PUBLIC_BASE_URL with x402 on, and one with no credentials, query or fragment (issue 33)", () => {
    // Without it the offers were built from the request's URL and Host: `?key=` and a forged host.
    const { PUBLIC_BASE_URL: _unset, ...withoutBase } = enabled;
    expect(issuesOf(withoutBase)).toMatch(/PUBLIC_BASE_URL: required when X402_ENABLED=true/);
    expect(issuesOf({ ...enabled, PUBLIC_BASE_URL: "" })).toMatch(/PUBLIC_BASE_URL: required/);
    for (const base of [
      "https://user:pw@gw.example",
      "https://gw.example/?key=sk-1",
      "https://gw.example/#x",
    ])
      expect(issuesOf({ ...enabled, PUBLIC_BASE_URL: base }), base).toMatch(
        /PUBLIC_BASE_URL: expected no credentials/,
      );
    expect(issuesOf({ ...enabled, PUBLIC_BASE_URL: "ftp://gw.example" })).toMatch(
      /expected an http or https/,
    );
    expect(
      loadX402Config({ ...enabled, PUBLIC_BASE_URL: "https://gw.example/gateway/" })?.publicBaseUrl,
    ).toBe("https://gw.example/gateway");
  });

  it("sorts the amounts so the cheapest is offered first", () => {
    const config = loadX402Config({ ...enabled, X402_TOPUP_AMOUNTS: "10, 0.25,2.5" });
    expect(config?.topupAmountsUsd).toEqual(["0.25", "2.5", "10"]);
  });

  it("names every bad variable at once", () => {
    const message = issuesOf({
      X402_ENABLED: "true",
      X402_NETWORKS: "eip155:84532,solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1,base",
      X402_TOPUP_AMOUNTS: "5,abc,0",
    });
    expect(message).toMatch(/X402_FACILITATOR_URL: required/);
    expect(message).toMatch(/X402_PAY_TO_EVM: required/);
    expect(message).toMatch(/X402_PAY_TO_SOLANA: required/);
    expect(message).toMatch(/X402_NETWORKS: base is not/);
    expect(message).toMatch(/X402_TOPUP_AMOUNTS: abc is not/);
    expect(message).toMatch(/X402_TOPUP_AMOUNTS: 0 is not/);
  });

  it("requires one top-up of at most 1 USD", () => {
    expect(issuesOf({ ...enabled, X402_TOPUP_AMOUNTS: "5,10" })).toMatch(/at most 1/);
  });

  it("refuses a malformed pay-to address, a duplicate network and an asset for a network not offered", () => {
    expect(issuesOf({ ...enabled, X402_PAY_TO_EVM: "0x123" })).toMatch(/X402_PAY_TO_EVM: expected a 0x/);
    expect(issuesOf({ ...enabled, X402_NETWORKS: "eip155:1,eip155:1" })).toMatch(/listed twice/);
    expect(issuesOf({ ...enabled, X402_ASSETS: `eip155:1=${EVM}` })).toMatch(/X402_ASSETS/);
    expect(issuesOf({ ...enabled, X402_ASSETS: "eip155:84532=0xzz" })).toMatch(/not a token address/);
  });

  it("accepts Solana with its pay-to and a token override per network", () => {
    const network = "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1";
    const config = loadX402Config({
      ...enabled,
      X402_NETWORKS: `eip155:31337,${network}`,
      X402_PAY_TO_SOLANA: SOL,
      X402_ASSETS: `eip155:31337=${EVM},${network}=${SOL}`,
    });
    expect(config?.assets).toEqual({ "eip155:31337": EVM, [network]: SOL });
    expect(config?.payToSolana).toBe(SOL);
  });
});
