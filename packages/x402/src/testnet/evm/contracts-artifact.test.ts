import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  testMulticallAbi,
  testMulticallBytecode,
  testUsdcAbi,
  testUsdcBytecode,
} from "./contracts-artifact.js";

const script = fileURLToPath(new URL("../../../scripts/compile-contracts.mjs", import.meta.url));

describe("the committed contract artifact", () => {
  it("is what contracts/*.sol compiles to (regenerate with node scripts/compile-contracts.mjs)", () => {
    const compiled = JSON.parse(execFileSync(process.execPath, [script, "--json"], { encoding: "utf8" }));
    expect(compiled.TestUSDC).toEqual({ abi: testUsdcAbi, bytecode: testUsdcBytecode });
    expect(compiled.TestMulticall).toEqual({ abi: testMulticallAbi, bytecode: testMulticallBytecode });
  });
});
