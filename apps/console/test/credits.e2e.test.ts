import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  accessibilityProblems,
  browserSkipReason,
  type ConsoleBrowser,
  elementsPastTheViewport,
  type Gateway,
  openFromNav,
  screenshot,
  signIn,
  startGatewayAndBrowser,
} from "./harness.js";

// The Credits page (issue 34, the account's credit transactions) against the embedded default: the
// account's start-up credit and the day's usage of one request, as GET /api/v1/credits/transactions
// lists them, at 1280 and 390 px and by keyboard alone, with axe.

let gateway: Gateway;
let browser: ConsoleBrowser;

beforeAll(async () => {
  if (browserSkipReason() !== undefined) return;
  [gateway, browser] = await startGatewayAndBrowser();
  const response = await fetch(`${gateway.url}/api/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${gateway.apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({ model: "demo/echo", messages: [{ role: "user", content: "credits e2e" }] }),
  });
  expect(response.status).toBe(200);
  // The usage line appears once billing has debited the request (through the embedded bus).
  const deadline = Date.now() + 30_000;
  while (!(await transactions()).some((line) => line.kind === "usage")) {
    if (Date.now() > deadline) throw new Error("no usage line 30 s after the request");
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await gateway?.stop();
});

interface Line {
  kind: string;
  amount: number;
  date: string | null;
}

/** The API's own list, to compare the page with. */
async function transactions(): Promise<Line[]> {
  const response = await fetch(`${gateway.url}/api/v1/credits/transactions?limit=100`, {
    headers: { authorization: `Bearer ${gateway.managementKey}` },
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: Line[] }).data;
}

/** The table's rows as text, header row left out. */
async function rows(page: Page): Promise<string[]> {
  const table = page.getByRole("table", { name: "Credit transactions" });
  await table.waitFor({ timeout: 15_000 });
  return (await table.getByRole("row").allInnerTexts()).slice(1);
}

describe("Credits page", () => {
  it("lists the account's credits and each day's usage, as the API does, with the balance (1280 px)", async () => {
    const { page, problems } = await browser.newPage();
    await openFromNav(page, gateway, "Credits");
    const lines = await transactions();
    const shown = await rows(page);
    expect(shown).toHaveLength(lines.length);
    const usage = lines.find((line) => line.kind === "usage");
    const usageRow = shown.find((row) => row.includes("Usage:"));
    expect(usageRow).toContain(`${usage?.date} (UTC)`);
    expect(usageRow).toMatch(/−\$/);
    expect(shown.some((row) => /Credit grant|Purchase/.test(row) && row.includes("+$"))).toBe(true);
    const totals = page.getByRole("definition");
    expect(await totals.count()).toBe(3);
    expect(await accessibilityProblems(page, "credits")).toEqual([]);
    await screenshot(page, "credits", "credits");
    expect(problems()).toEqual([]);
  });

  it("fits 390 px, one card per line, with axe", async () => {
    const { page, problems } = await browser.newPage({ width: 390 });
    await openFromNav(page, gateway, "Credits");
    expect((await rows(page)).length).toBeGreaterThan(0);
    expect(await elementsPastTheViewport(page)).toEqual([]);
    expect(await accessibilityProblems(page, "credits narrow")).toEqual([]);
    await screenshot(page, "credits", "credits-narrow");
    expect(problems()).toEqual([]);
  });

  it("opens by keyboard alone: Tab to the nav link, Enter, the heading takes focus and the table is reachable", async () => {
    const { page, problems } = await browser.newPage();
    await signIn(page, gateway.consoleUrl, gateway.managementKey);
    await page.getByRole("heading", { level: 1, name: "Usage" }).waitFor();
    const focusedText = () => page.evaluate(() => document.activeElement?.textContent?.trim() ?? "");
    let found = false;
    for (let presses = 0; presses < 30 && !found; presses++) {
      await page.keyboard.press("Tab");
      found = (await focusedText()) === "Credits";
    }
    expect(found).toBe(true);
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { level: 1, name: "Credits" }).waitFor();
    expect(await focusedText()).toBe("Credits");
    await rows(page);
    let inTable = false;
    for (let presses = 0; presses < 10 && !inTable; presses++) {
      await page.keyboard.press("Tab");
      inTable = await page.evaluate(
        () => document.activeElement?.getAttribute("aria-label") === "Credit transactions",
      );
    }
    expect(inTable).toBe(true);
    expect(problems()).toEqual([]);
  });
});
