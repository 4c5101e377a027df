import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatNumber, formatUsd } from "../src/components/format.js";
import {
  accessibilityProblems,
  type ConsoleBrowser,
  type Gateway,
  screenshot,
  signIn,
  startGatewayAndBrowser,
} from "./harness.js";

// The Usage page and the sign-in flows in Chromium against the embedded default: the empty state, the
// headline figures equal to what /api/v1/activity and /api/v1/credits answer, the charts' accessible
// data, the range control, an API key told apart from a management key, a revoked session (401) sent
// back to Sign in with the contract's message, and "Sign in with wallet" through an EIP-1193 provider
// whose signatures a real secp256k1 key makes (viem), verified by the gateway's own SIWx check.

const TEST = "usage";

let gateway: Gateway;
let chrome: ConsoleBrowser;

interface Activity {
  date: string;
  usage: number;
  requests: number;
}

beforeAll(async () => {
  [gateway, chrome] = await startGatewayAndBrowser();
}, 240_000);

afterAll(async () => {
  await chrome?.close();
  await gateway?.stop();
});

async function management<T>(path: string): Promise<T> {
  const response = await fetch(`${gateway.url}${path}`, {
    headers: { authorization: `Bearer ${gateway.managementKey}` },
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: T }).data;
}

/** The headline figure under its label (`<dt>Spend</dt><dd>…</dd>`). */
async function figure(page: Page, label: string): Promise<string> {
  const value = page.locator(".figure", { has: page.locator("dt", { hasText: label }) }).locator("dd");
  return ((await value.textContent()) ?? "").trim();
}

describe("the Usage page", () => {
  it("shows the empty state, then the API's figures, charts with their data, and the range", async () => {
    const { page, problems } = await chrome.newPage();
    await signIn(page, gateway.consoleUrl, gateway.managementKey);
    await page.getByRole("heading", { name: "Usage", level: 1 }).waitFor();
    await page.getByText("No requests in this period").waitFor();
    await screenshot(page, TEST, "empty");

    for (let index = 0; index < 3; index++) {
      const response = await fetch(`${gateway.url}/api/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${gateway.apiKey}`, "content-type": "application/json" },
        body: JSON.stringify({ model: "demo/echo", messages: [{ role: "user", content: `usage ${index}` }] }),
      });
      expect(response.status).toBe(200);
      await response.arrayBuffer();
    }
    await expect
      .poll(
        async () => (await management<Activity[]>("/api/v1/activity")).reduce((n, a) => n + a.requests, 0),
        {
          timeout: 30_000,
        },
      )
      .toBe(3);
    const activity = await management<Activity[]>("/api/v1/activity");
    const credits = await management<{ total_credits: number; total_usage: number }>("/api/v1/credits");
    const spend = activity.reduce((sum, item) => sum + item.usage, 0);

    await page.getByRole("button", { name: "Refresh" }).click();
    await expect.poll(() => figure(page, "Requests")).toBe(formatNumber(3));
    expect(await figure(page, "Spend")).toBe(formatUsd(spend));
    await expect
      .poll(() => figure(page, "Balance"))
      .toBe(formatUsd(credits.total_credits - credits.total_usage));

    // Token figures beside spend, and the period's activity as CSV, row for row as the API gave it.
    const activityTokens =
      await management<Array<{ prompt_tokens: number; completion_tokens: number }>>("/api/v1/activity");
    const tokensIn = activityTokens.reduce((n, a) => n + a.prompt_tokens, 0);
    const tokensOut = activityTokens.reduce((n, a) => n + a.completion_tokens, 0);
    expect(await figure(page, "Tokens (in / out)")).toBe(
      `${formatNumber(tokensIn)} / ${formatNumber(tokensOut)}`,
    );
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Export CSV" }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^usage-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = readFileSync((await download.path()) ?? "", "utf8")
      .trim()
      .split("\r\n");
    expect(csv[0]).toBe(
      "date,model,provider_name,requests,usage,byok_usage_inference,prompt_tokens,completion_tokens,reasoning_tokens",
    );
    expect(csv).toHaveLength(activity.length + 1);
    expect(csv.slice(1).reduce((n, line) => n + Number(line.split(",")[3]), 0)).toBe(3);

    // Three charts, each an image with a description and a table with the same figures.
    const charts = page.getByRole("img");
    await expect.poll(() => charts.count()).toBe(3);
    const labels = await charts.evaluateAll((nodes) => nodes.map((node) => node.getAttribute("aria-label")));
    expect(labels[0]).toMatch(/^Bar chart of spend per day, 30 entries, total /);
    expect(labels[1]).toContain("largest: demo/echo");
    expect(labels[2]).toContain("largest: demo");
    const today = new Date().toISOString().slice(0, 10);
    const perDay = page.locator("details").first();
    await perDay.getByText("Show data").click();
    const todayRow = perDay.getByRole("row").filter({ hasText: today });
    expect((await todayRow.locator("th, td").allTextContents()).map((cell) => cell.trim())).toEqual([
      today,
      formatUsd(spend),
      "3",
    ]);
    await page.getByRole("radio", { name: "Requests" }).check();
    await expect
      .poll(() => charts.first().getAttribute("aria-label"))
      .toMatch(/^Bar chart of requests per day, 30 entries, total 3; largest: /);

    // The range: "Today" leaves one day in the per-day data.
    await page.getByLabel("Preset period").selectOption({ label: "Today" });
    await expect.poll(() => perDay.locator("tbody tr").count()).toBe(1);

    // Typing a day into From by keyboard (issue 34): the year's digits arrive one by one (0002, 0020,
    // 0202, 2026) and must not collapse the range or reset the field mid-typing.
    await page.getByLabel("Preset period").selectOption({ label: "Last 30 days" });
    const from = new Date(Date.now() - 10 * 86_400_000).toISOString().slice(0, 10);
    const [year, month, day] = from.split("-");
    await page.getByLabel("Preset period").focus();
    await page.keyboard.press("Tab");
    await page.keyboard.type(`${month}${day}${year}`, { delay: 50 });
    await page.keyboard.press("Tab");
    expect(await page.getByLabel("From", { exact: true }).inputValue()).toBe(from);
    expect(await page.getByLabel("To", { exact: true }).inputValue()).toBe(today);
    await expect.poll(() => perDay.locator("tbody tr").count()).toBe(11);
    expect(await figure(page, "Requests")).toBe(formatNumber(3));
    expect(await page.getByText("No requests in this period").count()).toBe(0);
    expect(await accessibilityProblems(page, "usage")).toEqual([]);
    await screenshot(page, TEST, "usage");
    expect(problems()).toEqual([]);
  });

  it("tells an API key apart, and sends an ended session back to Sign in with the contract's message", async () => {
    const { page, problems } = await chrome.newPage();
    await signIn(page, gateway.consoleUrl, gateway.apiKey);
    await expect
      .poll(() => page.getByRole("alert").textContent())
      .toBe("This is an API key; sign in with a management key.");

    await signIn(page, gateway.consoleUrl, gateway.managementKey);
    await page.getByRole("heading", { name: "Usage", level: 1 }).waitFor();
    // The credential stops working (as when the key is revoked): the next API call answers 401.
    await page.evaluate(() => {
      const session = JSON.parse(sessionStorage.getItem("gw.console.session") ?? "{}");
      sessionStorage.setItem(
        "gw.console.session",
        JSON.stringify({ ...session, credential: "lr_mgmt_revoked" }),
      );
    });
    await page.reload();
    await page.getByRole("heading", { name: "Sign in", level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/console/sign-in");
    expect(await page.getByText("Your session has ended; sign in again.").count()).toBe(1);
    expect(await page.evaluate(() => sessionStorage.getItem("gw.console.session"))).toBeNull();
    expect(problems()).toEqual([]);
  });

  it("signs a wallet in with SIWx and shows the wallet's own usage", async () => {
    const { page, problems } = await chrome.newPage();
    // Hardhat's second well-known test account: a real key, so the gateway verifies a real signature.
    const account = privateKeyToAccount("0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d");
    const signed: string[] = [];
    await page.exposeFunction("__walletSign", async (hex: `0x${string}`) => {
      signed.push(Buffer.from(hex.slice(2), "hex").toString("utf8"));
      return account.signMessage({ message: { raw: hex } });
    });
    await page.addInitScript((address: string) => {
      const sign = (window as unknown as { __walletSign(hex: string): Promise<string> }).__walletSign;
      (window as unknown as { ethereum: unknown }).ethereum = {
        async request(args: { method: string; params?: unknown[] }) {
          if (args.method === "eth_requestAccounts") return [address.toLowerCase()];
          if (args.method === "eth_chainId") return "0x2105";
          if (args.method === "personal_sign") return sign(String(args.params?.[0]));
          throw new Error(`unsupported ${args.method}`);
        },
      };
    }, account.address);
    await page.goto(gateway.consoleUrl);
    await page.getByRole("button", { name: "Sign in with wallet" }).click();
    await page.getByRole("heading", { name: "Usage", level: 1 }).waitFor();

    const host = new URL(gateway.consoleUrl).host;
    expect(signed).toHaveLength(1);
    expect(signed[0]).toMatch(
      new RegExp(`^${host.replace(/\./g, "\\.")} wants you to sign in with your Ethereum account:\n`),
    );
    const nav = await page.getByRole("navigation", { name: "Main" }).getByRole("link").allTextContents();
    expect(nav).toEqual(["Usage", "Generations", "Models", "Playground"]);
    expect(await page.getByText(`eip155:8453:${account.address}`, { exact: false }).count()).toBeGreaterThan(
      0,
    );
    await expect.poll(() => figure(page, "Spend")).toBe("$0.00");
    expect(await accessibilityProblems(page, "wallet usage")).toEqual([]);
    await screenshot(page, TEST, "wallet");
    expect(problems()).toEqual([]);
  });
});
