import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EMPTY_USAGE } from "../test/billing.js";
import { type EdgeHarness, startEdgeHarness } from "../test/harness.js";
import { readJson } from "../test/http.js";
import { testKey } from "../test/principals.js";

const USD = 1_000_000_000_000n;
const alice = testKey("acct-alice", { label: "alice-label" });
const bob = testKey("acct-bob", { label: "bob-label" });
let edge: EdgeHarness;

beforeAll(async () => {
  edge = await startEdgeHarness({ keys: [alice, bob] });
  edge.billing.usageByKey.set(alice.principal.keyHash, { ...EMPTY_USAGE, keyUsagePico: 1n * USD });
  edge.billing.usageByKey.set(bob.principal.keyHash, { ...EMPTY_USAGE, keyUsagePico: 7n * USD });
});

afterAll(async () => {
  await edge?.stop();
});

async function keyInfo(headers: Record<string, string>, query = ""): Promise<Record<string, unknown>> {
  const response = await fetch(`${edge.url}/v1/key${query}`, { headers });
  return (await readJson<{ data: Record<string, unknown> }>(response)).data;
}

describe("GET /v1/key only ever describes the calling key", () => {
  it("gives each account its own key's data and asks billing only about the caller", async () => {
    const before = edge.billing.usageRequests.length;
    expect(await keyInfo({ authorization: `Bearer ${alice.secret}` })).toMatchObject({
      label: "alice-label",
      usage: 1,
      workspace_id: "acct-alice",
    });
    expect(await keyInfo({ authorization: `Bearer ${bob.secret}` })).toMatchObject({
      label: "bob-label",
      usage: 7,
      workspace_id: "acct-bob",
    });
    expect(edge.billing.usageRequests.slice(before)).toEqual([
      { accountId: "acct-alice", keyHash: alice.principal.keyHash },
      { accountId: "acct-bob", keyHash: bob.principal.keyHash },
    ]);
  });

  it("cannot be pointed at another key: the bearer credential wins over ?key= and other parameters", async () => {
    const data = await keyInfo(
      { authorization: `Bearer ${alice.secret}` },
      `?key=${bob.secret}&key_hash=${bob.principal.keyHash}&account_id=acct-bob`,
    );
    expect(data).toMatchObject({ label: "alice-label", workspace_id: "acct-alice" });
    expect(JSON.stringify(data)).not.toContain("bob");
  });
});
