import { BatchServiceClient } from "@gw/proto/generations/v1/batches";
import { insecureCredentials, unaryCall } from "@gw/rpc";
import { describeWith } from "@gw/testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type GenerationsHarness, startGenerationsHarness } from "../test/harness.js";

describeWith(["postgres"], "BatchService", () => {
  let harness: GenerationsHarness;
  let client: InstanceType<typeof BatchServiceClient>;
  const call = <K extends "create" | "get" | "list" | "cancel" | "delete" | "results" | "claim" | "complete">(
    name: K,
  ) =>
    unaryCall(client, client[name] as never) as (
      request: Parameters<BatchServiceClient[K]>[0],
    ) => Promise<never>;

  beforeAll(async () => {
    harness = await startGenerationsHarness();
    client = new BatchServiceClient(harness.running.grpcAddress, insecureCredentials());
  });

  afterAll(async () => {
    client?.close();
    await harness?.close();
  });

  const items = [
    { customId: "a", paramsJson: JSON.stringify({ model: "m", max_tokens: 5, messages: [] }) },
    { customId: "b", paramsJson: JSON.stringify({ model: "m", max_tokens: 5, messages: [] }) },
  ];

  it("stores a batch, hands its requests out once under a lease, and ends it with the last result", async () => {
    const created: { id: string; processingStatus: string; processing: number } = await call("create")({
      accountId: "acct_b",
      keyHash: "h1",
      items,
    });
    expect(created).toMatchObject({ processingStatus: "in_progress", processing: 2 });
    const first: { items: { itemId: bigint; customId: string; keyHash: string; batchId: string }[] } =
      await call("claim")({
        limit: 10,
        leaseMs: 60_000n,
      });
    const mine = first.items.filter((item) => item.batchId === created.id);
    expect(mine.map((item) => item.customId)).toEqual(["a", "b"]);
    expect(mine[0]?.keyHash).toBe("h1");
    const again: { items: { batchId: string }[] } = await call("claim")({ limit: 10, leaseMs: 60_000n });
    expect(again.items.filter((item) => item.batchId === created.id)).toEqual([]);
    const other = await call("get")({ id: created.id, accountId: "acct_other" });
    expect(other).toEqual({ result: { $case: "notFound", value: true } });
    expect(await call("results")({ id: created.id, accountId: "acct_b" })).toEqual({
      result: { $case: "notEnded", value: true },
    });
    for (const item of mine)
      await call("complete")({
        batchId: created.id,
        itemId: item.itemId,
        outcome: "succeeded",
        resultJson: JSON.stringify({ type: "succeeded", message: { id: item.customId } }),
      });
    const ended: { result: { value: { processingStatus: string; succeeded: number; endedAtMs: bigint } } } =
      await call("get")({ id: created.id, accountId: "acct_b" });
    expect(ended.result.value).toMatchObject({ processingStatus: "ended", succeeded: 2 });
    expect(ended.result.value.endedAtMs).toBeGreaterThan(0n);
    const results: { result: { value: { lines: { customId: string; resultJson: string }[] } } } = await call(
      "results",
    )({
      id: created.id,
      accountId: "acct_b",
    });
    expect(
      results.result.value.lines.map((line) => [line.customId, JSON.parse(line.resultJson).type]),
    ).toEqual([
      ["a", "succeeded"],
      ["b", "succeeded"],
    ]);
    expect(await call("delete")({ id: created.id, accountId: "acct_b" })).toEqual({
      result: { $case: "deleted", value: true },
    });
  });

  it("ends a batch whose requests all complete at the same moment", async () => {
    const many = Array.from({ length: 16 }, (_, index) => ({ customId: `r${index}`, paramsJson: "{}" }));
    const created: { id: string } = await call("create")({
      accountId: "acct_race",
      keyHash: "h3",
      items: many,
    });
    const claimed: { items: { itemId: bigint; batchId: string }[] } = await call("claim")({
      limit: 100,
      leaseMs: 60_000n,
    });
    const mine = claimed.items.filter((item) => item.batchId === created.id);
    expect(mine).toHaveLength(16);
    await Promise.all(
      mine.map((item) =>
        call("complete")({
          batchId: created.id,
          itemId: item.itemId,
          outcome: "succeeded",
          resultJson: '{"type":"succeeded"}',
        }),
      ),
    );
    const ended: { result: { value: { processingStatus: string; succeeded: number } } } = await call("get")({
      id: created.id,
      accountId: "acct_race",
    });
    expect(ended.result.value).toMatchObject({ processingStatus: "ended", succeeded: 16 });
  });

  it("cancels pending requests at once and refuses to delete a batch still processing", async () => {
    const created: { id: string } = await call("create")({ accountId: "acct_c", keyHash: "h2", items });
    expect(await call("delete")({ id: created.id, accountId: "acct_c" })).toEqual({
      result: { $case: "notEnded", value: true },
    });
    const canceled: { result: { value: { processingStatus: string; canceled: number } } } = await call(
      "cancel",
    )({
      id: created.id,
      accountId: "acct_c",
    });
    expect(canceled.result.value).toMatchObject({ processingStatus: "ended", canceled: 2 });
    const listed: { batches: { id: string }[] } = await call("list")({
      accountId: "acct_c",
      limit: 10,
      beforeId: "",
      afterId: "",
    });
    expect(listed.batches.map((batch) => batch.id)).toEqual([created.id]);
  });
});
