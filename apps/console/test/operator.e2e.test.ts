import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  accessibilityProblems,
  type ConsoleBrowser,
  type ConsolePage,
  elementsPastTheViewport,
  type Gateway,
  launchBrowser,
  screenshot,
  signIn,
  startGateway,
} from "./harness.js";

// The operator pages against the embedded default, signed in with an operator token made by the CLI:
// only Accounts and Catalogue in the nav; add credits and create an account; import, override a price,
// disable and enable a model.

let gateway: Gateway;
let browser: ConsoleBrowser;
let operatorToken = "";

beforeAll(async () => {
  gateway = await startGateway();
  browser = await launchBrowser();
  const printed = await gateway.cli(["operator-token", "create", "--name", "console-e2e", "--json"]);
  operatorToken = /gw_op_[0-9a-f]{48}/.exec(printed)?.[0] ?? "";
  expect(operatorToken).not.toBe("");
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await gateway?.stop();
});

async function signedInAsOperator(width?: number): Promise<ConsolePage> {
  const opened = await browser.newPage(width ? { width } : {});
  const { page } = opened;
  await signIn(page, gateway.consoleUrl, operatorToken);
  await page.getByRole("heading", { level: 1, name: "Accounts" }).waitFor({ timeout: 15_000 });
  return opened;
}

describe("Operator pages", () => {
  it("shows only the operator pages in the nav", async () => {
    const { page } = await signedInAsOperator();
    const links = await page.getByRole("navigation", { name: "Main" }).getByRole("link").allTextContents();
    expect(links).toEqual(["Accounts", "Catalogue"]);
  });

  it("adds credits to an account and creates a new one", async () => {
    const { page, problems } = await signedInAsOperator();
    const table = page.getByRole("table", { name: "Accounts" });
    await table.waitFor({ timeout: 15_000 });
    const row = table.getByRole("row").filter({ hasText: gateway.accountId });
    await row.getByRole("button", { name: /^Add credits/ }).click();
    const dialog = page.getByRole("dialog", { name: "Add credits" });
    await dialog.getByLabel("Amount (USD)").fill("12.50");
    await dialog.getByLabel("Reason").fill("console e2e");
    await dialog.getByRole("button", { name: "Add credits" }).click();
    await page
      .getByRole("status")
      .filter({ hasText: /^Added \$12\.50 to / })
      .waitFor({ timeout: 15_000 });

    await page.getByRole("button", { name: "Create account" }).click();
    const create = page.getByRole("dialog", { name: "Create account" });
    await create.getByLabel("Name").fill("Acme e2e");
    await create.getByRole("button", { name: "Create" }).click();
    const shown = page.getByRole("dialog", { name: "New account" });
    const key = (await shown.getByLabel("New management key").textContent()) ?? "";
    expect(key.length).toBeGreaterThan(20);
    await shown.getByRole("button", { name: "Done" }).click();
    await table.getByRole("row").filter({ hasText: "Acme e2e" }).waitFor({ timeout: 15_000 });
    await screenshot(page, "operator", "accounts");
    expect(problems()).toEqual([]);
  });

  it("previews and applies an import, overrides a price, disables and enables a model", async () => {
    const { page, problems } = await signedInAsOperator();
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Catalogue" }).click();
    await page.getByRole("heading", { level: 1, name: "Catalogue" }).waitFor();
    await page.getByRole("table", { name: "Served models" }).waitFor({ timeout: 15_000 });

    // The keys app's own import test's file: a LiteLLM entry for a model the catalogue has.
    const litellm = JSON.stringify({
      "gpt-4o-mini": { litellm_provider: "openai", mode: "chat", input_cost_per_token: 3e-7 },
    });
    await page.getByLabel("Catalogue JSON").fill(litellm);
    await page.getByRole("button", { name: "Preview import" }).click();
    const preview = page.getByText(/^Preview \(nothing written yet\)/);
    await preview.or(page.getByRole("alert")).first().waitFor({ timeout: 15_000 });
    expect(await page.getByRole("alert").allTextContents()).toEqual([]);
    await page.getByRole("button", { name: "Apply import" }).click();
    await page.getByText(/^Applied: /).waitFor({ timeout: 15_000 });

    await page.getByRole("combobox", { name: "Model" }).selectOption("demo/echo");
    const provider = page.getByRole("combobox", { name: "Provider" });
    const first = await provider.locator("option").nth(1).textContent();
    await provider.selectOption(first ?? "");
    await page.getByLabel("Prompt (USD per 1M tokens)").fill("0.5");
    await page.getByRole("button", { name: "Set prices" }).click();
    await page.getByText(/^Prices set \(version /).waitFor({ timeout: 15_000 });

    const served = page.getByRole("table", { name: "Served models" });
    await served
      .getByRole("row")
      .filter({ has: page.getByText("demo/echo", { exact: true }) })
      .getByRole("button", { name: "Disable demo/echo", exact: true })
      .click();
    const disabled = page.getByRole("region", { name: "Disabled" });
    await disabled
      .getByRole("button", { name: "Enable demo/echo", exact: true })
      .waitFor({ timeout: 15_000 });
    await screenshot(page, "operator", "catalogue");
    await disabled.getByRole("button", { name: "Enable demo/echo", exact: true }).click();
    await page.getByText("Nothing is disabled.").waitFor({ timeout: 15_000 });
    expect(problems()).toEqual([]);
  });

  it("refuses a credit beyond the ledger's limit, a duplicate name, and keeps a long name's row on screen (issue 34)", async () => {
    const { page, problems } = await signedInAsOperator();
    const table = page.getByRole("table", { name: "Accounts" });
    await table.waitFor({ timeout: 15_000 });
    const row = table.getByRole("row").filter({ hasText: gateway.accountId });
    await row.getByRole("button", { name: /^Add credits/ }).click();
    const dialog = page.getByRole("dialog", { name: "Add credits" });
    await dialog.getByLabel("Amount (USD)").fill("9999999999999");
    await dialog.getByLabel("Reason").fill("too much");
    await dialog.getByRole("button", { name: "Add credits" }).click();
    const refused = dialog.getByRole("alert");
    await refused.first().waitFor({ timeout: 15_000 });
    const text = (await refused.allTextContents()).join(" ");
    expect(text).toMatch(/at most \$1,000,000/);
    expect(text).not.toMatch(/unavailable/);
    await dialog.getByRole("button", { name: "Cancel" }).click();

    // The API refuses it too (a script cannot do what the form cannot), as a 400 naming the limit.
    const direct = await fetch(`${gateway.url}/api/v1/admin/accounts/${gateway.accountId}/credits`, {
      method: "POST",
      headers: { authorization: `Bearer ${operatorToken}`, "content-type": "application/json" },
      body: JSON.stringify({ amount: "9999999999999", reason: "script" }),
    });
    expect(direct.status).toBe(400);
    expect(await direct.text()).toContain("at most 1000000 USD");

    // A name already used is refused beside the form, not added twice.
    await page.getByRole("button", { name: "Create account" }).click();
    const create = page.getByRole("dialog", { name: "Create account" });
    await create.getByLabel("Name").fill("Twin e2e");
    await create.getByRole("button", { name: "Create" }).click();
    await page.getByRole("dialog", { name: "New account" }).getByRole("button", { name: "Done" }).click();
    await page.getByRole("button", { name: "Create account" }).click();
    await create.getByLabel("Name").fill("twin E2E");
    await create.getByRole("button", { name: "Create" }).click();
    await create
      .getByRole("alert")
      .filter({ hasText: /already exists/ })
      .waitFor({ timeout: 15_000 });
    await create.getByRole("button", { name: "Cancel" }).click();
    expect(
      await table
        .getByRole("row")
        .filter({ hasText: /twin e2e/i })
        .count(),
    ).toBe(1);

    // The longest name the API takes (200 characters, no space) keeps Add credits on screen.
    const long = "W".repeat(200);
    const created = await fetch(`${gateway.url}/api/v1/admin/accounts`, {
      method: "POST",
      headers: { authorization: `Bearer ${operatorToken}`, "content-type": "application/json" },
      body: JSON.stringify({ name: long }),
    });
    expect(created.status).toBe(201);
    const tooLong = await fetch(`${gateway.url}/api/v1/admin/accounts`, {
      method: "POST",
      headers: { authorization: `Bearer ${operatorToken}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "W".repeat(5000) }),
    });
    expect(tooLong.status).toBe(400);
    await page.reload();
    const longRow = table.getByRole("row").filter({ hasText: long });
    await longRow.waitFor({ timeout: 15_000 });
    const button = await longRow.getByRole("button", { name: /^Add credits/ }).boundingBox();
    expect(button).not.toBeNull();
    expect((button?.x ?? 0) + (button?.width ?? 0)).toBeLessThanOrEqual(1280);
    await screenshot(page, "operator", "accounts-long-name");
    expect(problems()).toEqual([]);
  });

  it("lists a refused import's problems and asks before applying an absurd price, which the API refuses unconfirmed (issue 34)", async () => {
    const { page, problems } = await signedInAsOperator();
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Catalogue" }).click();
    await page.getByRole("table", { name: "Served models" }).waitFor({ timeout: 15_000 });
    const unknown = JSON.stringify({
      "gpt-4o-mini": { litellm_provider: "nosuchprovider", mode: "chat", input_cost_per_token: 3e-7 },
    });
    await page.getByLabel("Catalogue JSON").fill(unknown);
    await page.getByRole("button", { name: "Preview import" }).click();
    await page
      .getByRole("alert")
      .filter({ hasText: /unknown provider: nosuchprovider/ })
      .waitFor({ timeout: 15_000 });

    // $10^12 per 1M tokens (a per-1M price typed as per token, times a million).
    const absurd = JSON.stringify({
      "gpt-4o-mini": { litellm_provider: "openai", mode: "chat", input_cost_per_token: 1e6 },
    });
    // A script cannot do what the form asks a person to confirm: the API refuses it unconfirmed.
    const unconfirmed = await fetch(`${gateway.url}/api/v1/admin/catalog/import`, {
      method: "POST",
      headers: { authorization: `Bearer ${operatorToken}`, "content-type": "application/json" },
      body: JSON.stringify({ format: "litellm", content: absurd, apply: true }),
    });
    expect(unconfirmed.status).toBe(400);
    const refusal = (await unconfirmed.json()) as { error: { metadata: { reason: string } } };
    expect(refusal.error.metadata.reason).toBe("price_confirmation_required");

    await page.getByLabel("Catalogue JSON").fill(absurd);
    await page.getByRole("button", { name: "Preview import" }).click();
    const warning = page.getByRole("alert").filter({ hasText: /check the file's unit/ });
    await warning.waitFor({ timeout: 15_000 });
    expect(await warning.textContent()).toMatch(/gpt-4o-mini@openai prompt: \$1,000,000,000,000 per 1M/);
    const apply = page.getByRole("button", { name: "Apply import" });
    expect(await apply.isDisabled()).toBe(true);
    await screenshot(page, "operator", "catalogue-absurd-price");
    await warning.getByLabel("These prices are right: apply them").check();
    expect(await apply.isDisabled()).toBe(false);
    await apply.click();
    // Applied: the console sent the confirmation the API asks for.
    await page.getByText(/^Applied: /).waitFor({ timeout: 15_000 });

    // The price override: the API's refusal is shown with a box to confirm, and setting it again works.
    await page.getByRole("combobox", { name: "Model" }).selectOption("demo/echo");
    const provider = page.getByRole("combobox", { name: "Provider" });
    await provider.selectOption((await provider.locator("option").nth(1).textContent()) ?? "");
    await page.getByLabel("Completion (USD per 1M tokens)").fill("2000");
    await page.getByRole("button", { name: "Set prices" }).click();
    await page
      .getByRole("alert")
      .filter({ hasText: /completion \$0\.002 per token is above \$0\.001 per token/ })
      .waitFor({ timeout: 15_000 });
    await page.getByLabel("This price is right: set it").check();
    await page.getByRole("button", { name: "Set prices" }).click();
    await page.getByText(/^Prices set \(version /).waitFor({ timeout: 15_000 });
    expect(problems()).toEqual([]);
  });

  it("has no serious accessibility violation and fits 360 px", async () => {
    const { page } = await signedInAsOperator(360);
    await page.getByRole("table", { name: "Accounts" }).waitFor({ timeout: 15_000 });
    expect(await accessibilityProblems(page, "operator accounts")).toEqual([]);
    await screenshot(page, "operator", "accounts-narrow");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Catalogue" }).click();
    await page.getByRole("table", { name: "Served models" }).waitFor({ timeout: 15_000 });
    expect(await accessibilityProblems(page, "operator catalogue")).toEqual([]);
    expect(await elementsPastTheViewport(page)).toEqual([]);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, "operator", "narrow");
  });
});
