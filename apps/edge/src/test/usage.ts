import type { UsageRecorded } from "@gw/events";
import { expect } from "vitest";
import type { EdgeHarness } from "./harness.js";

/** The usage event a request produced, once the in-process bus has delivered it. */
export async function usageEventFor(edge: EdgeHarness, generationId: string): Promise<UsageRecorded> {
  const find = () => edge.usageEvents().find((event) => event.generationId === generationId);
  await expect.poll(find).toBeDefined();
  return find() as UsageRecorded;
}
