import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ARTIFACTS_DIR,
  accessibilityProblems,
  browserSkipReason,
  type ConsoleBrowser,
  type ConsolePage,
  type Gateway,
  screenshot,
  signIn,
  startGatewayAndBrowser,
} from "./harness.js";
import { bundleSize, type FirstRender, measureFirstRender, median } from "./measure.js";

// The journey in a real browser (Debian's Chromium, headless) against the embedded default as a
// process: sign in with the management key, create a key (its secret shown once), chat with it from the
// Playground (streamed, with its cost), find the request in Generations (and by id) and in the Usage
// chart's data, disable the key and see the Playground refused with the API's own message. Every page
// is screenshot (artifacts/console/journey/) and checked with axe-core, at 1280 px and at 360 px.
// The accessible names are the ones apps/console/README.md's contract fixes.

const TEST = "journey";
const KEY_NAME = "Journey key";
const PAGES = ["Usage", "Keys", "Generations", "Models", "Playground"] as const;

/** expect.poll with room for a shared CI machine (its default is one second). */
const poll = <T>(probe: () => T | Promise<T>, options: { timeout?: number } = {}) =>
  expect.poll(probe, { timeout: 20_000, interval: 250, ...options });

let gateway: Gateway;
let chrome: ConsoleBrowser;
/** The API key created in the console, as the "New key secret" showed it. */
let secret = "";

beforeAll(async () => {
  if (browserSkipReason() !== undefined) return;
  [gateway, chrome] = await startGatewayAndBrowser();
}, 240_000);

afterAll(async () => {
  await chrome?.close();
  await gateway?.stop();
});

async function openPage(page: Page, name: string): Promise<void> {
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name, exact: true }).click();
  await poll(() => heading(page)).toBe(name);
}

async function heading(page: Page): Promise<string | undefined> {
  const headings = await page.getByRole("heading", { level: 1 }).allTextContents();
  return headings.length === 1 ? headings[0]?.trim() : `${headings.length} h1: ${headings.join(" | ")}`;
}

/** Screenshot, then axe: no serious or critical violation, no CSP refusal or uncaught error. */
async function record(tab: ConsolePage, name: string): Promise<void> {
  await screenshot(tab.page, TEST, name);
  expect(await accessibilityProblems(tab.page, name), `axe on ${name}`).toEqual([]);
  expect(tab.problems(), `errors on ${name}`).toEqual([]);
}

/** The API's own answer to a chat with `key`, to compare with what the console shows. */
async function chatError(key: string): Promise<{ status: number; message: string }> {
  const response = await fetch(`${gateway.url}/api/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ model: "demo/echo", messages: [{ role: "user", content: "hi" }] }),
  });
  const body = (await response.json()) as { error?: { message?: string } };
  return { status: response.status, message: body.error?.message ?? "" };
}

async function sendFromPlayground(page: Page, message: string): Promise<void> {
  await page.getByRole("combobox", { name: "Model" }).selectOption({ label: "demo/echo" });
  await page.getByRole("textbox", { name: "Message" }).fill(message);
  await page.getByRole("button", { name: "Send" }).click();
}

describe.skipIf(browserSkipReason() !== undefined)(
  "the web console, in Chromium, against the embedded default",
  { timeout: 240_000 },
  () => {
    it("refuses a wrong management key with the API's message and keeps the user on Sign in", async () => {
      const tab = await chrome.newPage();
      await tab.page.goto(gateway.consoleUrl);
      await poll(() => heading(tab.page)).toBe("Sign in");
      await record(tab, "sign-in");
      await signIn(tab.page, gateway.consoleUrl, `lr_mgmt_${"0".repeat(48)}`);
      const alert = tab.page.getByRole("alert");
      await alert.waitFor();
      expect((await alert.textContent())?.trim().length).toBeGreaterThan(0);
      expect(await heading(tab.page)).toBe("Sign in");
      expect(new URL(tab.page.url()).pathname).toBe("/console/sign-in");
      expect(tab.page.url()).not.toContain("lr_mgmt_");
      await record(tab, "sign-in-error");
      await tab.context.close();
    });

    it("signs in, creates a key, chats with it, finds the request, disables the key and is refused", async () => {
      const tab = await chrome.newPage();
      const { page } = tab;
      await signIn(page, gateway.consoleUrl, gateway.managementKey);
      await poll(() => heading(page)).toBe("Usage");
      expect(new URL(page.url()).pathname).toBe("/console/usage");
      // The key lives in session storage only, never in the URL.
      expect(page.url()).not.toContain(gateway.managementKey);

      // Keys: create one; its secret is shown once.
      await openPage(page, "Keys");
      await record(tab, "keys-empty");
      await page.getByRole("button", { name: "Create key" }).click();
      const create = page.getByRole("dialog", { name: "Create key" });
      await create.getByLabel("Name", { exact: true }).fill(KEY_NAME);
      await record(tab, "keys-create-dialog");
      await create.getByRole("button", { name: "Create", exact: true }).click();
      const created = page.getByRole("dialog", { name: "Your new key" });
      secret = ((await created.getByLabel("New key secret").textContent()) ?? "").trim();
      expect(secret).toMatch(/^lr_live_[0-9a-f]{48}$/);
      await record(tab, "keys-new-secret");
      await created.getByRole("button", { name: "Done" }).click();
      await created.waitFor({ state: "detached" });
      const row = page.getByRole("row").filter({ hasText: KEY_NAME });
      await row.waitFor();
      expect(await page.content()).not.toContain(secret);

      // Playground: the new key is filled in; a streamed reply with its cost.
      await openPage(page, "Playground");
      await poll(() => page.getByRole("textbox", { name: "API key" }).inputValue()).toBe(secret);
      await sendFromPlayground(page, "Hello from the journey");
      const conversation = page.getByRole("log", { name: "Conversation" });
      await conversation
        .getByText(/Cost \$/)
        .first()
        .waitFor({ timeout: 30_000 });
      expect(await conversation.textContent()).toContain("Hello from the journey");
      await record(tab, "playground-reply");

      // Generations: the request is listed, and found by its id.
      const [generation] = await recentGenerations();
      expect(generation?.model).toBe("demo/echo");
      await openPage(page, "Generations");
      const table = page.getByRole("table", { name: "Recent generations" });
      await poll(
        async () => {
          await page
            .getByRole("button", { name: /Refresh|Filter/ })
            .first()
            .click();
          return (await table.count()) > 0 ? await table.textContent() : "";
        },
        { timeout: 30_000 },
      ).toContain("demo/echo");
      await record(tab, "generations");
      await page.getByRole("searchbox", { name: "Generation id" }).fill(generation?.id ?? "");
      await page.getByRole("button", { name: "Look up" }).click();
      await page
        .getByText(generation?.id ?? "-")
        .first()
        .waitFor();
      await record(tab, "generation-lookup");
      await page.goto(`${gateway.consoleUrl.replace(/\/$/, "")}/generations?id=${generation?.id}`);
      await page
        .getByText(generation?.id ?? "-")
        .first()
        .waitFor();

      // Usage: the request is in the chart's data table.
      await openPage(page, "Usage");
      await poll(
        async () => {
          await page.getByRole("button", { name: "Refresh" }).click();
          const data = page.getByText("Show data");
          if ((await data.count()) === 0) return "";
          for (const summary of await data.all()) await summary.click();
          return (await page.locator("details table").allTextContents()).join(" ");
        },
        { timeout: 30_000 },
      ).toContain("demo/echo");
      await record(tab, "usage");

      // Disable the key; the Playground is refused with the API's own message.
      await openPage(page, "Keys");
      await row.getByRole("button", { name: "Disable" }).waitFor();
      await record(tab, "keys");
      await row.getByRole("button", { name: "Disable" }).click();
      await row.getByRole("button", { name: "Enable" }).waitFor();
      await record(tab, "keys-disabled");
      const refusal = await chatError(secret);
      // The API refuses a disabled key 401 (key_disabled); the console must show it, not sign out.
      expect(refusal.status).toBe(401);
      expect(refusal.message.length).toBeGreaterThan(0);
      await openPage(page, "Playground");
      // The disabled key may be refused as soon as the page lists its models (the model list is then
      // empty and Send disabled), or when a message is sent: either way the API's message is shown.
      const alert = page.getByRole("alert").filter({ hasText: refusal.message });
      const model = page.getByRole("combobox", { name: "Model" });
      await poll(async () => (await alert.count()) > 0 || (await model.isEnabled())).toBe(true);
      if ((await alert.count()) === 0) await sendFromPlayground(page, "Are you there?");
      await alert.first().waitFor({ timeout: 15_000 });
      // A refused API key is not the end of the management session.
      expect(new URL(page.url()).pathname).toBe("/console/playground");
      await record(tab, "playground-refused");

      // Models, for its screenshot and axe.
      await openPage(page, "Models");
      await record(tab, "models");

      // The README's pictures (docs/images/console-*.png are copied from these): Usage with its data
      // tables folded, Keys with both keys and their usage.
      await openPage(page, "Usage");
      await page.getByText("demo/echo").first().waitFor({ state: "attached" });
      await screenshot(page, TEST, "readme-usage");
      await openPage(page, "Keys");
      await row.waitFor();
      await screenshot(page, TEST, "readme-keys");
      await tab.context.close();
    });

    it("fits a 360 px wide screen on every page", async () => {
      const tab = await chrome.newPage({ width: 360, height: 740 });
      const { page } = tab;
      await signIn(page, gateway.consoleUrl, gateway.managementKey);
      await poll(() => heading(page)).toBe("Usage");
      for (const name of PAGES) {
        await page.goto(`${gateway.consoleUrl}${name.toLowerCase()}`);
        await poll(() => heading(page)).toBe(name);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `${name} scrolls sideways by ${overflow} px at 360 px`).toBeLessThanOrEqual(0);
        await record(tab, `narrow-${name.toLowerCase()}`);
      }
      await tab.context.close();
    });

    it("returns to Sign in with 'Your session has ended' when the key stops working (revoked or rotated)", async () => {
      const tab = await chrome.newPage();
      const { page } = tab;
      await signIn(page, gateway.consoleUrl, gateway.managementKey);
      await poll(() => heading(page)).toBe("Usage");
      // A management key cannot be deleted through the API (only API keys are); what the console meets
      // is the same either way: its stored credential is answered 401. A well-formed key no account has.
      const revoked = `lr_mgmt_${"f".repeat(48)}`;
      await page.evaluate((credential) => {
        const stored = JSON.parse(sessionStorage.getItem("gw.console.session") ?? "{}") as object;
        sessionStorage.setItem("gw.console.session", JSON.stringify({ ...stored, credential }));
      }, revoked);
      await page.reload();
      await poll(() => new URL(page.url()).pathname).toBe("/console/sign-in");
      await page.getByText("Your session has ended; sign in again.").waitFor();
      expect(await page.evaluate(() => JSON.stringify(sessionStorage))).not.toContain(revoked);
      await record(tab, "session-ended");
      await tab.context.close();
    });

    it("measures the time to first render of Usage (median of 5) and the bundle size", async () => {
      const tab = await chrome.newPage();
      const { page } = tab;
      await signIn(page, gateway.consoleUrl, gateway.managementKey);
      await poll(() => heading(page)).toBe("Usage");
      const runs: FirstRender[] = [];
      for (let run = 0; run < 5; run += 1)
        runs.push(await measureFirstRender(page, `${gateway.consoleUrl}usage`, "Usage"));
      const figures = {
        firstContentfulPaintMs: median(runs.map((run) => run.firstContentfulPaintMs)),
        headingWithDataMs: median(runs.map((run) => run.headingWithDataMs)),
        runs,
        bundle: bundleSize(),
      };
      console.log(`console first render and bundle: ${JSON.stringify(figures, null, 2)}`);
      mkdirSync(join(ARTIFACTS_DIR, TEST), { recursive: true });
      writeFileSync(join(ARTIFACTS_DIR, TEST, "measure.json"), `${JSON.stringify(figures, null, 2)}\n`);
      // Logged, not held to a budget (the machine is shared): only that each was measured.
      expect(Number.isFinite(figures.firstContentfulPaintMs)).toBe(true);
      expect(figures.headingWithDataMs).toBeGreaterThan(0);
      await tab.context.close();
    });
  },
);

interface GenerationItem {
  id: string;
  model: string;
}

/** The account's recent generations, from the API the Generations page reads (waits for the first). */
async function recentGenerations(): Promise<GenerationItem[]> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const response = await fetch(`${gateway.url}/api/v1/generations?limit=10`, {
      headers: { authorization: `Bearer ${gateway.managementKey}` },
    });
    const body = (await response.json()) as { data?: GenerationItem[] };
    if (response.ok && (body.data?.length ?? 0) > 0) return body.data ?? [];
    if (Date.now() > deadline)
      throw new Error(`no generation listed: ${response.status} ${JSON.stringify(body)}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
