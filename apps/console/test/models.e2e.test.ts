import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ARTIFACTS_DIR,
  accessibilityProblems,
  type ConsoleBrowser,
  type ConsolePage,
  type Gateway,
  launchBrowser,
  openFromNav,
  screenshot,
  startGateway,
} from "./harness.js";

// The Models page against the embedded default: the catalogue with prices per million tokens, search,
// and a model's endpoints with their live health figures.

let gateway: Gateway;
let browser: ConsoleBrowser;

beforeAll(async () => {
  gateway = await startGateway();
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await gateway?.stop();
});

interface MeasuredEndpoint {
  uptime_last_30m: number | null;
  latency_last_30m: { p50: number; p90: number } | null;
  throughput_last_30m: number | null;
}

/** demo/echo's one endpoint as the public API measures it. */
async function demoEndpoint(): Promise<MeasuredEndpoint | undefined> {
  const response = await fetch(`${gateway.url}/api/v1/models/demo/echo/endpoints`, {
    headers: { authorization: `Bearer ${gateway.apiKey}` },
  });
  const body = (await response.json()) as { data?: MeasuredEndpoint[] };
  if (!body.data) throw new Error(`endpoints of demo/echo: ${response.status} ${JSON.stringify(body)}`);
  return body.data[0];
}

async function openModels(width?: number): Promise<ConsolePage> {
  const opened = await browser.newPage(width ? { width } : {});
  await openFromNav(opened.page, gateway, "Models");
  return opened;
}

/** The catalogue as the public API serves it, to compare the page with. */
async function catalogue(): Promise<Array<{ id: string; pricing: { prompt: string } }>> {
  const response = await fetch(`${gateway.url}/api/v1/models`);
  return ((await response.json()) as { data: Array<{ id: string; pricing: { prompt: string } }> }).data;
}

/** Each model's context length, as the public API serves it. */
async function catalogueContexts(): Promise<Map<string, number>> {
  const response = await fetch(`${gateway.url}/api/v1/models`);
  const data = ((await response.json()) as { data: Array<{ id: string; context_length: number }> }).data;
  return new Map(data.map((m) => [m.id, m.context_length]));
}

describe("Models", () => {
  it("lists every model, and search narrows the list", async () => {
    const models = await catalogue();
    const { page, problems } = await openModels();
    const table = page.getByRole("table", { name: "Models" });
    await table.waitFor({ timeout: 15_000 });
    // One header row plus one row per model.
    expect(await table.getByRole("row").count()).toBe(models.length + 1);
    const echo = table.getByRole("row").filter({ has: page.getByText("demo/echo", { exact: true }) });
    expect(await echo.count()).toBe(1);
    expect(await echo.textContent()).toMatch(/\$\d|free/);
    await screenshot(page, "models", "catalogue");

    await page.getByRole("searchbox", { name: "Search models" }).fill("echo");
    await expect.poll(() => table.getByRole("row").count()).toBeLessThanOrEqual(models.length);
    expect(
      await table
        .getByRole("row")
        .filter({ has: page.getByText("demo/echo", { exact: true }) })
        .count(),
    ).toBe(1);
    await page.getByRole("searchbox", { name: "Search models" }).fill("zzz-no-such-model");
    await page.getByText("No model matches").waitFor();
    expect(problems()).toEqual([]);
  });

  it("opens a model's endpoints with uptime, latency and throughput", async () => {
    // Traffic first, so demo/echo's endpoint has measured figures (from the usage events, asynchronously).
    const chat = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${gateway.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "demo/echo", messages: [{ role: "user", content: "measure me" }] }),
    });
    expect(chat.status).toBe(200);
    await expect
      .poll(async () => (await demoEndpoint())?.uptime_last_30m ?? null, { timeout: 30_000 })
      .not.toBeNull();
    const measured = await demoEndpoint();
    const latency = measured?.latency_last_30m;
    expect(measured?.uptime_last_30m).toBe(100);
    expect(latency).not.toBeNull();
    const { page } = await openModels();
    const table = page.getByRole("table", { name: "Models" });
    await table.waitFor({ timeout: 15_000 });
    await table
      .getByRole("row")
      .filter({ has: page.getByText("demo/echo", { exact: true }) })
      .getByRole("button")
      .click();
    const endpoints = page.getByRole("table", { name: "Endpoints of demo/echo" });
    await endpoints.waitFor({ timeout: 15_000 });
    const header = (await endpoints.getByRole("row").first().textContent()) ?? "";
    for (const column of ["Provider", "Uptime (30 min)", "First token p50 / p90", "Throughput"]) {
      expect(header).toContain(column);
    }
    expect(await endpoints.getByRole("row").count()).toBeGreaterThan(1);
    // The demo endpoint's row shows the figures the API measured, not dashes.
    const row = (await endpoints.getByRole("row").nth(1).textContent()) ?? "";
    expect(row).toContain("100%");
    expect(row).toContain(`${Math.round(latency?.p50 ?? -1)} / ${Math.round(latency?.p90 ?? -1)} ms`);
    if (measured?.throughput_last_30m !== null) expect(row).toMatch(/\d+(\.\d)? tok\/s/);
    expect(new URL(page.url()).searchParams.get("model")).toBe("demo/echo");
    await screenshot(page, "models", "endpoints");
  });

  it("brings a model opened far down the list into view, with focus on it (issue 34)", async () => {
    const { page } = await openModels();
    const table = page.getByRole("table", { name: "Models" });
    await table.waitFor({ timeout: 15_000 });
    const last = table.getByRole("row").last();
    await last.scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    await last.getByRole("button").first().click();
    const heading = page.locator("#model-detail-title");
    await heading.waitFor({ timeout: 15_000 });
    await expect
      .poll(async () => {
        const box = await heading.boundingBox();
        return box !== null && box.y >= 0 && box.y + box.height <= 800;
      })
      .toBe(true);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("model-detail-title");
    await page.screenshot({ path: `${ARTIFACTS_DIR}/models/detail-from-far-down.png` });
  });

  it("sorts by prompt price and by context (issue 34)", async () => {
    const { page } = await openModels();
    const table = page.getByRole("table", { name: "Models" });
    await table.waitFor({ timeout: 15_000 });
    const models = await catalogue();
    const sortBy = page.getByLabel("Sort by");
    const firstId = async () =>
      ((await table.getByRole("row").nth(1).locator(".model-id").textContent()) ?? "").trim();

    await sortBy.selectOption({ label: "Prompt price, lowest first" });
    expect(new URL(page.url()).searchParams.get("sort")).toBe("prompt");
    const priced = models.filter((m) => Number(m.pricing.prompt) >= 0);
    const cheapest = Math.min(...priced.map((m) => Number(m.pricing.prompt)));
    await expect
      .poll(
        async () => {
          const id = await firstId();
          return Number(models.find((m) => m.id === id)?.pricing.prompt);
        },
        { timeout: 15_000 },
      )
      .toBe(cheapest);

    await sortBy.selectOption({ label: "Context, largest first" });
    const contexts = await catalogueContexts();
    const largest = Math.max(...contexts.values());
    await expect.poll(async () => contexts.get(await firstId()), { timeout: 15_000 }).toBe(largest);
  });

  it("filters by prompt price and by context, the rows equal to the API's models that qualify (issue 34)", async () => {
    const { page, problems } = await openModels();
    const table = page.getByRole("table", { name: "Models" });
    await table.waitFor({ timeout: 15_000 });
    const models = await catalogue();
    const contexts = await catalogueContexts();
    const shownIds = async () =>
      (await table.locator(".model-id").allTextContents()).map((id) => id.trim()).sort();

    await page.getByLabel("Prompt price").selectOption({ label: "Up to $2 / 1M" });
    expect(new URL(page.url()).searchParams.get("max_prompt")).toBe("2");
    const cheap = models.filter((m) => Number(m.pricing.prompt) >= 0 && Number(m.pricing.prompt) * 1e6 <= 2);
    expect(cheap.length).toBeGreaterThan(0);
    expect(cheap.length).toBeLessThan(models.length);
    await expect.poll(shownIds, { timeout: 15_000 }).toEqual(cheap.map((m) => m.id).sort());

    await page.getByLabel("Context", { exact: true }).selectOption({ label: "128K or more" });
    const both = cheap.filter((m) => (contexts.get(m.id) ?? 0) >= 128_000).map((m) => m.id);
    await expect.poll(shownIds, { timeout: 15_000 }).toEqual(both.sort());
    expect(problems()).toEqual([]);
  });

  it("has no serious accessibility violation and fits 360 px", async () => {
    const { page } = await openModels(360);
    await page.getByRole("table", { name: "Models" }).waitFor({ timeout: 15_000 });
    expect(await accessibilityProblems(page, "models")).toEqual([]);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, "models", "narrow");
  });
});
