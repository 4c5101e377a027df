import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatUsd } from "../src/components/format.js";
import {
  accessibilityProblems,
  type ConsoleBrowser,
  type Gateway,
  openFromNav,
  screenshot,
  startGatewayAndBrowser,
} from "./harness.js";

// The Keys page in Chromium against the embedded default: create a key with every field the API's create
// body has (a 400 naming a field shown beside it), see the secret once, use the key and see its usage in
// its row, edit limit/reset/restrictions, disable (the key is refused) and enable it, and delete it after
// confirming. Every change is checked against the management API itself, not only on screen.

const TEST = "keys";

let gateway: Gateway;
let chrome: ConsoleBrowser;

interface ApiKey {
  hash: string;
  name: string;
  disabled: boolean;
  limit: number | null;
  limit_reset: string | null;
  expires_at: string | null;
  allowed_providers: string[] | null;
  allowed_models: string[] | null;
  include_byok_in_limit: boolean;
  usage: number;
}

beforeAll(async () => {
  // The gateway seals BYOK provider keys with this (a test value; the gateway inherits the env).
  process.env.BYOK_MASTER_KEY = "5a".repeat(32);
  [gateway, chrome] = await startGatewayAndBrowser();
}, 240_000);

afterAll(async () => {
  await chrome?.close();
  await gateway?.stop();
});

async function keysFromApi(): Promise<ApiKey[]> {
  const response = await fetch(`${gateway.url}/api/v1/keys?include_disabled=true`, {
    headers: { authorization: `Bearer ${gateway.managementKey}` },
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: ApiKey[] }).data;
}

async function keyNamed(name: string): Promise<ApiKey | undefined> {
  return (await keysFromApi()).find((key) => key.name === name);
}

async function chat(secret: string): Promise<number> {
  const response = await fetch(`${gateway.url}/api/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
    body: JSON.stringify({ model: "demo/echo", messages: [{ role: "user", content: "hello keys" }] }),
  });
  await response.arrayBuffer();
  return response.status;
}

async function signInToKeys(page: Page): Promise<void> {
  await openFromNav(page, gateway, "Keys");
}

describe("the Keys page", () => {
  it("creates a key with every field, shows a field's API error beside it, and shows the secret once", async () => {
    const { page, context, problems } = await chrome.newPage();
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await signInToKeys(page);
    await page.getByRole("button", { name: "Create key" }).click();
    const dialog = page.getByRole("dialog", { name: "Create key" });
    await dialog.getByLabel("Name", { exact: true }).fill("Limited key");
    await dialog.getByLabel("Credit limit (USD)").fill("2.5");
    await dialog.getByLabel("Limit reset").selectOption("weekly");
    await dialog.getByLabel("Expires at").fill("2030-01-01T12:00");
    await dialog.getByLabel("Allowed providers").fill("nope");
    await dialog.getByLabel("Allowed models").fill("demo/echo");
    await dialog.getByLabel("Include BYOK usage in the limit").check();
    await dialog.getByRole("button", { name: "Create", exact: true }).click();

    // The API refuses the unknown provider and names the field: the message sits beside that input.
    const providers = dialog.getByLabel("Allowed providers");
    await expect.poll(() => providers.getAttribute("aria-invalid")).toBe("true");
    const describedBy = (await providers.getAttribute("aria-describedby")) ?? "";
    const errorText = await page.evaluate(
      (ids) => ids.map((id) => document.getElementById(id)?.textContent ?? "").join(" "),
      describedBy.split(" "),
    );
    expect(errorText).toContain("unknown provider: nope");
    expect(await keyNamed("Limited key")).toBeUndefined();
    await screenshot(page, TEST, "create-field-error");

    await providers.fill("demo");
    await dialog.getByRole("button", { name: "Create", exact: true }).click();
    const created = page.getByRole("dialog", { name: "Your new key" });
    const secret = ((await created.getByLabel("New key secret").textContent()) ?? "").trim();
    expect(secret.length).toBeGreaterThan(20);
    await screenshot(page, TEST, "new-secret");
    await created.getByRole("button", { name: "Copy" }).click();
    await created.getByText("Copied to the clipboard.").waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await created.getByRole("button", { name: "Done" }).click();
    await created.waitFor({ state: "detached" });
    // Shown once: nowhere on the page any more.
    expect(await page.content()).not.toContain(secret);

    const key = await keyNamed("Limited key");
    expect(key).toMatchObject({
      limit: 2.5,
      limit_reset: "weekly",
      allowed_providers: ["demo"],
      allowed_models: ["demo/echo"],
      include_byok_in_limit: true,
      disabled: false,
    });
    // The browser runs in UTC (the harness's context): the local 12:00 is 12:00Z.
    expect(new Date(key?.expires_at ?? "").toISOString()).toBe("2030-01-01T12:00:00.000Z");

    // Its usage shows in its row once it has been used.
    expect(await chat(secret)).toBe(200);
    await expect
      .poll(async () => (await keyNamed("Limited key"))?.usage ?? 0, { timeout: 20_000 })
      .toBeGreaterThan(0);
    const used = await keyNamed("Limited key");
    await page.reload();
    const row = page.getByRole("row").filter({ hasText: "Limited key" });
    await row.waitFor();
    const text = (await row.textContent()) ?? "";
    expect(text).toContain(formatUsd(used?.usage ?? 0));
    expect(text).toContain("$2.50 weekly");
    expect(text).toContain("Models: demo/echo");
    expect(await accessibilityProblems(page, "keys")).toEqual([]);
    await screenshot(page, TEST, "list");
    expect(problems()).toEqual([]);
  });

  it("edits limits and restrictions, closes on Escape, disables, enables and deletes", async () => {
    const { page, problems } = await chrome.newPage();
    await signInToKeys(page);
    const row = page.getByRole("row").filter({ hasText: "Limited key" });
    await row.waitFor();

    // Escape closes the dialog without saving, and focus returns to the button that opened it.
    const editButton = row.getByRole("button", { name: "Edit" });
    await editButton.click();
    const edit = page.getByRole("dialog", { name: /Edit key/ });
    await edit.getByLabel("Credit limit (USD)").fill("99");
    await page.keyboard.press("Escape");
    await edit.waitFor({ state: "detached" });
    expect(await editButton.evaluate((button) => button === document.activeElement)).toBe(true);
    expect((await keyNamed("Limited key"))?.limit).toBe(2.5);

    await editButton.click();
    await edit.getByLabel("Credit limit (USD)").fill("3");
    await edit.getByLabel("Limit reset").selectOption("never");
    await edit.getByLabel("Allowed providers").fill("");
    await edit.getByRole("button", { name: "Save" }).click();
    await edit.waitFor({ state: "detached" });
    await expect.poll(async () => (await keyNamed("Limited key"))?.limit).toBe(3);
    expect(await keyNamed("Limited key")).toMatchObject({ limit_reset: null, allowed_providers: null });
    await expect.poll(() => row.textContent()).toContain("$3.00 lifetime");

    const hash = (await keyNamed("Limited key"))?.hash ?? "";
    await row.getByRole("button", { name: "Disable" }).click();
    await row.getByRole("button", { name: "Enable" }).waitFor();
    expect((await keyNamed("Limited key"))?.disabled).toBe(true);
    await row.getByRole("button", { name: "Enable" }).click();
    await row.getByRole("button", { name: "Disable" }).waitFor();
    expect((await keyNamed("Limited key"))?.disabled).toBe(false);

    await row.getByRole("button", { name: "Delete" }).click();
    const confirm = page.getByRole("dialog", { name: "Delete key" });
    await screenshot(page, TEST, "delete-confirm");
    await confirm.getByRole("button", { name: "Delete key" }).click();
    await row.waitFor({ state: "detached" });
    const gone = await fetch(`${gateway.url}/api/v1/keys/${hash}`, {
      headers: { authorization: `Bearer ${gateway.managementKey}` },
    });
    expect(gone.status).toBe(404);
    expect(problems()).toEqual([]);
  });

  it("edits a key's expiry in the browser's zone, shows it in the list, and removes it with Never expires", async () => {
    const made = await fetch(`${gateway.url}/api/v1/keys`, {
      method: "POST",
      headers: { authorization: `Bearer ${gateway.managementKey}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "Expiring key" }),
    });
    expect(made.status).toBe(201);
    // Berlin in July is UTC+2 (in November, when this was written, UTC+1): the form converts the wall time
    // the user types, at the date meant, to the UTC instant the API stores.
    const { page, problems } = await chrome.newPage({ timezoneId: "Europe/Berlin" });
    await signInToKeys(page);
    const row = page.getByRole("row").filter({ hasText: "Expiring key" });
    await row.waitFor();
    expect(await row.textContent()).toContain("Never");

    const editButton = row.getByRole("button", { name: "Edit" });
    await editButton.click();
    const edit = page.getByRole("dialog", { name: /Edit key/ });
    expect(await edit.getByLabel("Never expires").isChecked()).toBe(true);
    // A time in the past is refused beside the input, before anything is sent.
    await edit.getByLabel("Expires at").fill("2020-01-01T00:00");
    expect(await edit.getByLabel("Never expires").isChecked()).toBe(false);
    await edit.getByRole("button", { name: "Save" }).click();
    const expiresInput = edit.getByLabel("Expires at");
    await expect.poll(() => expiresInput.getAttribute("aria-invalid")).toBe("true");
    expect(await edit.textContent()).toContain("Choose a time in the future.");
    expect((await keyNamed("Expiring key"))?.expires_at).toBeNull();

    await expiresInput.fill("2031-07-15T14:30");
    expect(await edit.textContent()).toContain(
      "Your local time (Europe/Berlin), saved as 2031-07-15 12:30 UTC.",
    );
    expect(await accessibilityProblems(page, "the Edit dialog's expiry")).toEqual([]);
    await screenshot(page, TEST, "edit-expiry");
    await edit.getByRole("button", { name: "Save" }).click();
    await edit.waitFor({ state: "detached" });
    expect((await keyNamed("Expiring key"))?.expires_at).toBe("2031-07-15T12:30:00.000Z");
    await expect.poll(() => row.textContent()).toContain("2031-07-15 12:30 UTC");

    // Opened again, the form shows the expiry in the browser's zone; Never expires removes it.
    await editButton.click();
    expect(await expiresInput.inputValue()).toBe("2031-07-15T14:30");
    await edit.getByLabel("Never expires").check();
    expect(await expiresInput.inputValue()).toBe("");
    await edit.getByRole("button", { name: "Save" }).click();
    await edit.waitFor({ state: "detached" });
    expect((await keyNamed("Expiring key"))?.expires_at).toBeNull();
    await expect.poll(() => row.textContent()).not.toContain("2031-07-15");
    expect(await row.textContent()).toContain("Never");
    expect(await accessibilityProblems(page, "keys after editing the expiry")).toEqual([]);
    expect(problems()).toEqual([]);
  });

  it("adds, disables and deletes a provider key (BYOK), never showing it again (issue 34)", async () => {
    const { page, problems } = await chrome.newPage();
    await signInToKeys(page);
    const section = page.getByRole("region", { name: "Provider keys (BYOK)" });
    await section.getByText("No provider key yet.").waitFor({ timeout: 15_000 });
    const form = section.getByRole("form", { name: "Add a provider key" });
    const secret = "sk-console-e2e-0123456789abcdef";
    await form.getByLabel("Provider", { exact: true }).fill("openai");
    await form.getByLabel("Name (optional)").fill("Team OpenAI");
    await form.getByLabel("Provider API key").fill(secret);
    await form.getByRole("button", { name: "Add provider key" }).click();
    const table = section.getByRole("table", { name: "Provider keys" });
    const row = table.getByRole("row").filter({ hasText: "Team OpenAI" });
    await row.waitFor({ timeout: 15_000 });
    expect(await row.textContent()).toContain("openai");
    expect(await page.content()).not.toContain(secret);
    expect(await form.getByLabel("Provider API key").inputValue()).toBe("");
    const listed = await fetch(`${gateway.url}/api/v1/byok`, {
      headers: { authorization: `Bearer ${gateway.managementKey}` },
    });
    const stored = ((await listed.json()) as { data: Array<{ name: string; disabled: boolean }> }).data;
    expect(stored).toMatchObject([{ name: "Team OpenAI", disabled: false }]);

    await row.getByRole("button", { name: "Disable Team OpenAI" }).click();
    await row.getByText("Disabled", { exact: true }).waitFor({ timeout: 15_000 });
    await row.getByRole("button", { name: "Delete Team OpenAI" }).click();
    const confirm = page.getByRole("dialog", { name: "Delete provider key" });
    await confirm.getByRole("button", { name: "Delete provider key" }).click();
    await section.getByText("No provider key yet.").waitFor({ timeout: 15_000 });
    expect(await accessibilityProblems(page, "provider keys")).toEqual([]);
    expect(problems()).toEqual([]);
  });

  it("works at 360 px: one card per key, every action on screen, no sideways scrolling", async () => {
    const { page, problems } = await chrome.newPage({ width: 360, height: 800 });
    await signInToKeys(page);
    const row = page.getByRole("row").filter({ hasText: "dev api key" });
    await row.waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    for (const name of ["Edit", "Disable", "Delete"]) {
      const box = await row.getByRole("button", { name }).boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= 360, `${name} within the screen`).toBe(true);
    }
    expect(await accessibilityProblems(page, "keys at 360 px")).toEqual([]);
    await screenshot(page, TEST, "list-360");
    expect(problems()).toEqual([]);
  });
});
