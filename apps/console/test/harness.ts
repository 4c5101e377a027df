import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AxeResults, Result } from "axe-core";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { type Gateway, REPO_ROOT, startGateway } from "./gateway.js";

export { type Gateway, startGateway } from "./gateway.js";

/** Debian's Chromium (scripts/test.sh installs it); playwright-core never downloads a browser. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

const CI = process.env.CI === "true" || process.env.CI === "1";
const MISSING = `Chromium was not found at ${CHROMIUM_PATH}: install Debian's chromium (as root: apt-get install -y chromium; scripts/test.sh does), or set CHROMIUM_PATH`;

/**
 * Why the browser tests cannot run here, when they may be skipped: only outside CI with
 * GW_ALLOW_SKIPS=1 (as for the services, scripts/test.sh). Anywhere else a missing browser fails them.
 */
export function browserSkipReason(): string | undefined {
  if (existsSync(CHROMIUM_PATH) || CI || process.env.GW_ALLOW_SKIPS !== "1") return undefined;
  console.warn(`[console e2e] skipped: ${MISSING}`);
  return MISSING;
}

const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Screenshots land in artifacts/console/<test>/<page>.png at the repository's root (git-ignored). */
export const ARTIFACTS_DIR = join(REPO_ROOT, "artifacts", "console");

export interface ConsoleBrowser {
  browser: Browser;
  /**
   * A fresh context (its own storage), so each test signs in from nothing. `timezoneId` (IANA, default
   * UTC) is the browser's zone, for pages that convert local times.
   */
  newPage(options?: { width?: number; height?: number; timezoneId?: string }): Promise<ConsolePage>;
  close(): Promise<void>;
}

export interface ConsolePage {
  page: Page;
  context: BrowserContext;
  /** Uncaught errors and Content-Security-Policy refusals seen on this page so far. */
  problems(): string[];
}

/**
 * Launches Chromium headless on a fresh, temporary user-data-dir (playwright-core's `launch` creates one
 * and removes it on close; a persistent profile would carry state between runs).
 */
export async function launchBrowser(): Promise<ConsoleBrowser> {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(MISSING);
  const downloads = mkdtempSync(join(tmpdir(), "gw-console-downloads-"));
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_FLAGS,
    downloadsPath: downloads,
    timeout: 60_000,
  });
  return {
    browser,
    newPage: async (options = {}) => {
      const context = await browser.newContext({
        viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
        locale: "en-US",
        timezoneId: options.timezoneId ?? "UTC",
      });
      const page = await context.newPage();
      const problems: string[] = [];
      page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
      page.on("console", (message) => {
        const text = message.text();
        if (/Content.Security.Policy|Refused to (load|execute|apply|connect)/i.test(text))
          problems.push(`CSP: ${text}`);
      });
      return { page, context, problems: () => [...problems] };
    },
    close: async () => {
      await browser.close();
      rmSync(downloads, { recursive: true, force: true });
    },
  };
}

/**
 * The gateway and the browser, started together. If either fails the other is closed: with
 * `Promise.all` a missing Chromium left the already-started gateway (and its embedded PostgreSQL) running
 * after the suite, since `afterAll` never got a handle to stop it.
 */
export async function startGatewayAndBrowser(): Promise<[Gateway, ConsoleBrowser]> {
  const [gateway, browser] = await Promise.allSettled([startGateway(), launchBrowser()]);
  if (gateway.status === "fulfilled" && browser.status === "fulfilled") return [gateway.value, browser.value];
  if (gateway.status === "fulfilled") await gateway.value.stop();
  if (browser.status === "fulfilled") await browser.value.close();
  throw gateway.status === "rejected" ? gateway.reason : (browser as PromiseRejectedResult).reason;
}

/** A full-page screenshot at artifacts/console/<test>/<name>.png; returns its path. */
export async function screenshot(page: Page, test: string, name: string): Promise<string> {
  const dir = join(ARTIFACTS_DIR, test);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${name}.png`);
  await page.screenshot({ path, fullPage: true, animations: "disabled" });
  return path;
}

const axeSource = (): string => {
  const require = createRequire(import.meta.url);
  return (require("axe-core") as { source: string }).source;
};

/** The violations that fail a page: axe's `serious` and `critical` impacts. */
export function blocking(results: Pick<AxeResults, "violations">): Result[] {
  return results.violations.filter((rule) => rule.impact === "serious" || rule.impact === "critical");
}

export function describeViolations(violations: Result[]): string {
  return violations
    .map(
      (rule) =>
        `${rule.impact} ${rule.id}: ${rule.help} (${rule.helpUrl})\n` +
        rule.nodes
          .slice(0, 5)
          .map((node) => `    ${node.target.join(" ")}: ${node.failureSummary?.replace(/\n/g, " ") ?? ""}`)
          .join("\n"),
    )
    .join("\n");
}

/**
 * Runs axe-core (WCAG 2.x A/AA and best practices) on the page as it is now. The source is evaluated
 * through the DevTools protocol, which the page's CSP does not apply to (a <script> tag would be refused).
 */
export async function runAxe(page: Page): Promise<AxeResults> {
  const loaded = await page.evaluate(() => "axe" in window);
  if (!loaded) await page.evaluate(axeSource());
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<unknown> } })
      .axe;
    return axe.run(document, {
      runOnly: {
        type: "tag",
        values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"],
      },
      resultTypes: ["violations"],
    });
  }) as Promise<AxeResults>;
}

/** axe on the page; the serious and critical violations, printed, for the caller to assert empty. */
export async function accessibilityProblems(page: Page, label: string): Promise<string[]> {
  const results = await runAxe(page);
  const serious = blocking(results);
  if (serious.length > 0) console.error(`axe on ${label}:\n${describeViolations(serious)}`);
  return serious.map((rule) => `${rule.impact} ${rule.id} (${rule.nodes.length} nodes): ${rule.help}`);
}

/**
 * When the page scrolls sideways, the innermost elements that reach past the viewport's right edge
 * (an element whose children all fit is the one to fix), as `tag.class "text" width`; empty when the
 * page fits. Elements clipped by a scroller are listed only if the page overflows for another reason.
 */
export async function elementsPastTheViewport(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const limit = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth <= limit) return [];
    const past = [...document.body.querySelectorAll("*")].filter((element) => {
      const box = element.getBoundingClientRect();
      return box.width > 0 && box.right > limit + 0.5;
    });
    const innermost = past.filter(
      (element) => !past.some((other) => other !== element && element.contains(other)),
    );
    return innermost.map((element) => {
      const classes = element.getAttribute("class") ?? "";
      const text = (element.textContent ?? "").trim().slice(0, 40);
      const width = Math.round(element.getBoundingClientRect().width);
      return `${element.tagName.toLowerCase()}${classes ? `.${classes.split(/\s+/).join(".")}` : ""} "${text}" ${width}px`;
    });
  });
}

/** Signs in from the console's sign-in page with a management key or an operator token. */
export async function signIn(page: Page, consoleUrl: string, credential: string): Promise<void> {
  await page.goto(consoleUrl);
  await page.getByLabel("Management key").fill(credential);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

/**
 * Signs in with the gateway's management key, waits for the landing page (Usage), then opens `name`
 * from the main navigation and waits for its heading.
 */
export async function openFromNav(
  page: Page,
  gateway: Pick<Gateway, "consoleUrl" | "managementKey">,
  name: string,
) {
  await signIn(page, gateway.consoleUrl, gateway.managementKey);
  await page.getByRole("heading", { level: 1, name: "Usage" }).waitFor();
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name, exact: true }).click();
  await page.getByRole("heading", { level: 1, name }).waitFor();
}
