import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  accessibilityProblems,
  type ConsoleBrowser,
  type Gateway,
  screenshot,
  signIn,
  startGatewayAndBrowser,
} from "./harness.js";

// Issue 34 (Generations): a failed generation's detail showed no error text, only which providers were
// tried. The record now keeps the error its client was answered with; the detail view shows it.

let gateway: Gateway;
let browser: ConsoleBrowser;
let failedId = "";
let answered = "";
let reason = "";

beforeAll(async () => {
  [gateway, browser] = await startGatewayAndBrowser();
  // The demo provider is OpenAI's strict fake: it refuses an argument OpenAI does not know with a 400,
  // which is final (no fallback), so the request is admitted, fails, and is recorded as failed.
  const response = await fetch(`${gateway.url}/api/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${gateway.apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({ model: "demo/echo", messages: [{ role: "user", content: "hi" }], frobnicate: 1 }),
  });
  expect(response.status).toBe(400);
  failedId = response.headers.get("x-generation-id") ?? "";
  expect(failedId).not.toBe("");
  const { error } = (await response.json()) as { error: { message: string; metadata: { reason: string } } };
  answered = error.message;
  reason = error.metadata.reason;
  expect(answered).toMatch(/frobnicate/);
  await recorded(failedId);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await gateway?.stop();
});

/** Waits (bounded, 20 s) until the generation's record is written: records arrive through the outbox. */
async function recorded(id: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const response = await fetch(`${gateway.url}/api/v1/generation?id=${encodeURIComponent(id)}`, {
      headers: { authorization: `Bearer ${gateway.managementKey}` },
    });
    if (response.status === 200) return;
    if (Date.now() > deadline)
      throw new Error(`generation ${id} not recorded in 20 s (last ${response.status})`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe("a failed generation's detail", () => {
  for (const width of [1280, 390])
    it(`shows the error its client was answered with, status and reason (${width} px)`, async () => {
      const { page, problems } = await browser.newPage({ width });
      await signIn(page, gateway.consoleUrl, gateway.managementKey);
      await page.getByRole("heading", { level: 1, name: "Usage" }).waitFor();
      await page.goto(
        `${gateway.consoleUrl.replace(/\/$/, "")}/generations?id=${encodeURIComponent(failedId)}`,
      );
      await page
        .getByRole("heading", { level: 2, name: `Generation ${failedId}` })
        .waitFor({ timeout: 15_000 });
      const fact = (term: string) =>
        page
          .locator(".detail-fact", { has: page.locator("dt", { hasText: new RegExp(`^${term}$`) }) })
          .locator("dd");
      expect(await fact("Status").textContent()).toBe("Error");
      expect(await fact("Error").textContent()).toBe(answered);
      expect(await fact("Error status").textContent()).toBe(`HTTP 400, ${reason}`);
      expect(await accessibilityProblems(page, "generation-error")).toEqual([]);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await screenshot(page, "generations", `error-${width}`);
      expect(problems()).toEqual([]);
    });
});
