import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  accessibilityProblems,
  type ConsoleBrowser,
  type ConsolePage,
  elementsPastTheViewport,
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

  it("forgets a key deleted on the Keys page, and one the gateway no longer accepts (issue 34)", async () => {
    const { page, problems } = await signedIn();
    const nav = page.getByRole("navigation", { name: "Main" });
    await nav.getByRole("link", { name: "Keys", exact: true }).click();
    await page.getByRole("button", { name: "Create key" }).click();
    const dialog = page.getByRole("dialog", { name: "Create key" });
    await dialog.getByLabel("Name", { exact: true }).fill("Playground soon deleted");
    await dialog.getByRole("button", { name: "Create", exact: true }).click();
    await page.getByRole("dialog", { name: "Your new key" }).getByRole("button", { name: "Done" }).click();
    const row = page.getByRole("row").filter({ hasText: "Playground soon deleted" });
    await row.getByRole("button", { name: "Delete" }).click();
    await page
      .getByRole("dialog", { name: "Delete key" })
      .getByRole("button", { name: "Delete key" })
      .click();
    await row.waitFor({ state: "detached" });

    await nav.getByRole("link", { name: "Playground", exact: true }).click();
    await page.getByRole("heading", { level: 1, name: "Playground" }).waitFor();
    expect(await page.getByLabel("API key").inputValue()).toBe("");
    expect(await page.getByRole("alert").count()).toBe(0);

    // A key kept from this session but deleted elsewhere (here: through the API) is forgotten at its 401.
    const created = await createApiKey("playground-deleted-elsewhere");
    await page.evaluate((secret) => sessionStorage.setItem("gw.console.playground-key", secret), created.key);
    const deleted = await fetch(`${gateway.url}/api/v1/keys/${created.hash}`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${gateway.managementKey}` },
    });
    expect(deleted.status).toBe(200);
    await nav.getByRole("link", { name: "Models", exact: true }).click();
    await nav.getByRole("link", { name: "Playground", exact: true }).click();
    await page
      .getByRole("status")
      .filter({ hasText: /no longer accepted/ })
      .waitFor({ timeout: 15_000 });
    expect(await page.getByLabel("API key").inputValue()).toBe("");
    expect(await page.evaluate(() => sessionStorage.getItem("gw.console.playground-key"))).toBeNull();
    expect(problems()).toEqual([]);
  });

  it("says a management key is not an API key, and a key's own limit is not the account's credits", async () => {
    const { page } = await signedIn();
    await page.getByLabel("API key").fill(gateway.managementKey);
    await page
      .getByRole("alert")
      .filter({ hasText: /This is a management key/ })
      .waitFor({ timeout: 15_000 });
    expect(await page.getByRole("alert").allTextContents()).not.toContainEqual(
      expect.stringMatching(/allowed models/),
    );

    // A key whose own credit limit is used up, while the account still has credits.
    const response = await fetch(`${gateway.url}/api/v1/keys`, {
      method: "POST",
      headers: { authorization: `Bearer ${gateway.managementKey}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "playground-limited", limit: 0.000001 }),
    });
    expect(response.status).toBe(201);
    const limited = ((await response.json()) as { key: string }).key;
    let status = 0;
    for (let attempt = 0; attempt < 10 && status !== 402; attempt++) {
      const chat = await fetch(`${gateway.url}/api/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${limited}`, "content-type": "application/json" },
        body: JSON.stringify({ model: "demo/echo", messages: [{ role: "user", content: "spend" }] }),
      });
      status = chat.status;
      await chat.arrayBuffer();
      if (status !== 402) await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(status).toBe(402);
    await page.getByLabel("API key").fill(limited);
    const model = page.getByRole("combobox", { name: "Model" });
    await expect.poll(() => model.locator(`option[value="demo/echo"]`).count(), { timeout: 15_000 }).toBe(1);
    await model.selectOption("demo/echo");
    await page.getByRole("textbox", { name: "Message" }).fill("Over my limit?");
    await page.getByRole("button", { name: "Send" }).click();
    const alert = page.getByRole("alert").filter({ hasText: /credit limit is used up/ });
    await alert.waitFor({ timeout: 15_000 });
    expect(await alert.textContent()).not.toMatch(/account's credits are used up/);
    await screenshot(page, "playground", "key-limit");
  });

  it("sends a system prompt and parameters, refusing an out-of-range temperature", async () => {
    const { page, problems } = await signedIn();
    await page.getByLabel("API key").fill(gateway.apiKey);
    const model = page.getByRole("combobox", { name: "Model" });
    await expect.poll(() => model.locator(`option[value="demo/echo"]`).count(), { timeout: 15_000 }).toBe(1);
    await model.selectOption("demo/echo");
    await page.getByText("System prompt and parameters").click();
    await page.getByLabel("System prompt").fill("Answer in one word.");
    await page.getByLabel("Temperature").fill("5");
    await page.getByRole("textbox", { name: "Message" }).fill("Parameters?");
    await page.getByRole("alert").filter({ hasText: "Temperature: a number from 0 to 2." }).waitFor();
    expect(await page.getByRole("button", { name: "Send" }).isDisabled()).toBe(true);
    await page.getByLabel("Temperature").fill("0.3");
    await page.getByLabel("Max tokens").fill("32");

    const sent = page.waitForRequest((request) => request.url().endsWith("/api/v1/chat/completions"));
    await page.getByRole("button", { name: "Send" }).click();
    const body = JSON.parse((await sent).postData() ?? "{}") as Record<string, unknown>;
    expect(body).toMatchObject({
      model: "demo/echo",
      temperature: 0.3,
      max_tokens: 32,
      messages: [
        { role: "system", content: "Answer in one word." },
        { role: "user", content: "Parameters?" },
      ],
    });
    await page
      .getByRole("log", { name: "Conversation" })
      .getByText(/^Cost \$/)
      .waitFor({ timeout: 30_000 });
    expect(problems()).toEqual([]);
  });

  it("compares two models side by side, each answer with its cost and latency, by keyboard, at 1280 and 390 px (issue 34)", async () => {
    for (const width of [1280, 390]) {
      const { page, problems } = await signedIn(width);
      await page.getByLabel("API key").fill(gateway.apiKey);
      const compare = page.getByRole("region", { name: "Compare two models" });
      const first = compare.getByRole("combobox", { name: "First" });
      await expect
        .poll(() => first.locator(`option[value="demo/echo"]`).count(), { timeout: 15_000 })
        .toBe(1);
      // The embedded default serves one chat model: the same one on both sides.
      await first.selectOption("demo/echo");
      await compare.getByRole("combobox", { name: "Second" }).selectOption("demo/echo");
      // By keyboard: type the prompt, Tab to Compare, Enter.
      await compare.getByRole("textbox", { name: "Prompt for both" }).focus();
      await page.keyboard.type(`Compare at ${width}`);
      await page.keyboard.press("Tab");
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Compare");
      await page.keyboard.press("Enter");

      for (const side of ["First", "Second"]) {
        const answer = compare.getByRole("article", { name: `${side}: demo/echo` });
        await answer.getByText(/^Cost \$/).waitFor({ timeout: 30_000 });
        expect(await answer.textContent()).toContain(`You said: Compare at ${width}`);
        expect(await answer.getByText(/^Latency: first token \d+ ms/).textContent()).toMatch(
          /^Latency: first token \d+ ms, total (\d+ ms|\d+\.\d s)$/,
        );
        expect(await answer.getByRole("link").count()).toBe(1);
      }
      // Not part of the chat: the conversation is still empty.
      expect(await page.getByRole("log", { name: "Conversation" }).textContent()).toContain(
        "No messages yet",
      );
      expect(await elementsPastTheViewport(page)).toEqual([]);
      expect(await accessibilityProblems(page, `playground compare ${width}`)).toEqual([]);
      await screenshot(page, "playground", `compare-${width}`);
      expect(problems()).toEqual([]);
    }
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
