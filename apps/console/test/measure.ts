import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import type { Page } from "playwright-core";
import { REPO_ROOT } from "./gateway.js";

export interface BundleSize {
  files: { name: string; raw: number; gzip: number }[];
  js: { raw: number; gzip: number };
  css: { raw: number; gzip: number };
}

/** The built console's JS and CSS (apps/console/dist/assets), raw and gzipped (level 9, as a CDN would). */
export function bundleSize(dist = join(REPO_ROOT, "apps/console/dist")): BundleSize {
  const assets = join(dist, "assets");
  const files = readdirSync(assets)
    .filter((name) => /\.(js|css)$/.test(name))
    .map((name) => {
      const bytes = readFileSync(join(assets, name));
      return { name, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
    });
  const total = (suffix: string) =>
    files
      .filter((file) => file.name.endsWith(suffix))
      .reduce((sum, file) => ({ raw: sum.raw + file.raw, gzip: sum.gzip + file.gzip }), { raw: 0, gzip: 0 });
  return { files, js: total(".js"), css: total(".css") };
}

export interface FirstRender {
  /** Navigation start to the first contentful paint (Chromium's paint timing). */
  firstContentfulPaintMs: number;
  /** Navigation start to the first frame with the page's <h1> and its figures (the Balance filled in). */
  headingWithDataMs: number;
}

/**
 * Reloads the signed-in page (the session survives a reload: it is in this tab's sessionStorage) and
 * reads both times from the Performance API; the second is taken on the animation frame that first
 * shows the h1 with data.
 */
export async function measureFirstRender(page: Page, url: string, heading: string): Promise<FirstRender> {
  await page.goto(url, { waitUntil: "commit" });
  const shown = await page.waitForFunction(
    (title) => {
      const h1 = document.querySelector("h1");
      const balance = [...document.querySelectorAll("dt")].find(
        (term) => term.textContent?.trim() === "Balance",
      );
      const figure = balance?.nextElementSibling?.textContent ?? "";
      return h1?.textContent?.trim() === title && figure.includes("$") ? performance.now() : false;
    },
    heading,
    { polling: "raf", timeout: 30_000 },
  );
  const headingWithDataMs = (await shown.jsonValue()) as number;
  // The paint entry can be queued a frame after the paint itself.
  const paint = await page.waitForFunction(
    () => performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? false,
    undefined,
    { timeout: 10_000 },
  );
  const firstContentfulPaintMs = (await paint.jsonValue()) as number;
  return { firstContentfulPaintMs, headingWithDataMs };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}
