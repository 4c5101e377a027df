import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  accessibilityProblems,
  type ConsoleBrowser,
  type ConsolePage,
  type Gateway,
  launchBrowser,
  openFromNav,
  screenshot,
  startGateway,
} from "./harness.js";

// The Playground against the embedded default: a reply streamed from demo/echo through the gateway,
// its cost and generation id, the refusal of a disabled key, and the page at 360 px.

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

async function signedIn(width?: number): Promise<ConsolePage> {
  const opened = await browser.newPage(width ? { width } : {});
  await openFromNav(opened.page, gateway, "Playground");
  return opened;
}

/** A new API key of the gateway's account, made through the management API (not the page). */
async function createApiKey(name: string): Promise<{ key: string; hash: string }> {
  const response = await fetch(`${gateway.url}/api/v1/keys`, {
    method: "POST",
    headers: { authorization: `Bearer ${gateway.managementKey}`, "content-type": "application/json" },
    body: JSON.stringify({ name }),
  });
  expect(response.status).toBe(201);
  const body = (await response.json()) as { key: string; data: { hash: string } };
  return { key: body.key, hash: body.data.hash };
}

describe("Playground", () => {
  it("streams a reply, shows its cost and links its generation", async () => {
    const { page, problems } = await signedIn();
    await page.getByLabel("API key").fill(gateway.apiKey);
    const model = page.getByRole("combobox", { name: "Model" });
    await expect.poll(() => model.locator(`option[value="demo/echo"]`).count(), { timeout: 15_000 }).toBe(1);
    await model.selectOption("demo/echo");
    await page.getByRole("textbox", { name: "Message" }).fill("Hello from the console playground");
    await page.getByRole("button", { name: "Send" }).click();

    const log = page.getByRole("log", { name: "Conversation" });
    const cost = log.getByText(/^Cost \$/);
    await cost.waitFor({ timeout: 30_000 });
    expect(await cost.textContent()).toMatch(/^Cost \$\d/);
    expect(await log.textContent()).toContain("Hello from the console playground");
    // The streamed reply itself: demo/echo's deterministic text, which quotes the message (the user's
    // own turn alone would not contain the demo sentence).
    expect(await log.textContent()).toContain(
      "This is the built-in demo provider of Model Gateway, not a real model. You said: Hello from the console playground",
    );
    expect(await log.textContent()).toMatch(/\d+ prompt \+ \d+ completion tokens/);
    await screenshot(page, "playground", "reply");

    const generation = log.getByRole("link").last();
    const id = (await generation.textContent()) ?? "";
    expect(id.length).toBeGreaterThan(5);
    await generation.click();
    await page.getByRole("heading", { level: 1, name: "Generations" }).waitFor();
    expect(new URL(page.url()).searchParams.get("id")).toBe(id);
    await page.getByRole("heading", { level: 2, name: `Generation ${id}` }).waitFor({ timeout: 15_000 });
    expect(problems()).toEqual([]);
  });

  it("shows the API's refusal of a disabled key in an alert and keeps the session", async () => {
    const created = await createApiKey("playground-refusal");
    const { page } = await signedIn();
    await page.getByLabel("API key").fill(created.key);
    const model = page.getByRole("combobox", { name: "Model" });
    await expect.poll(() => model.locator(`option[value="demo/echo"]`).count(), { timeout: 15_000 }).toBe(1);
    const disabled = await fetch(`${gateway.url}/api/v1/keys/${created.hash}`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${gateway.managementKey}`, "content-type": "application/json" },
      body: JSON.stringify({ disabled: true }),
    });
    expect(disabled.status).toBe(200);

    await model.selectOption("demo/echo");
    await page.getByRole("textbox", { name: "Message" }).fill("Are you there?");
    await page.getByRole("button", { name: "Send" }).click();
    const alert = page.getByRole("alert").filter({ hasText: "API key was not accepted" });
    await alert.waitFor({ timeout: 15_000 });
    await screenshot(page, "playground", "refused");
    // The message goes back into the box, and the management session is still signed in.
    expect(await page.getByRole("textbox", { name: "Message" }).inputValue()).toBe("Are you there?");
    expect(await page.getByRole("button", { name: "Sign out" }).isVisible()).toBe(true);
  });

  it("has no serious accessibility violation and fits 360 px", async () => {
    const { page } = await signedIn(360);
    await page.getByLabel("API key").fill(gateway.apiKey);
    await expect
      .poll(() => page.getByRole("combobox", { name: "Model" }).locator(`option[value="demo/echo"]`).count())
      .toBe(1);
    expect(await accessibilityProblems(page, "playground")).toEqual([]);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, "playground", "narrow");
  });
});
