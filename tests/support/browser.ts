/**
 * A real headless Chromium (the Debian package, `/usr/bin/chromium`, or
 * `MINOC_CHROMIUM`) driven by playwright-core, with a fresh profile (user data
 * directory) that is removed on close. Collects console errors and uncaught page errors.
 *
 * @example
 * ```ts
 * await using browser = await openBrowser();
 * const page = await browser.page({ colorScheme: "dark" });
 * await page.goto(toFileUrl(report));
 * assert.deepEqual(browser.errors, []);
 * ```
 * @module
 */
import { type BrowserContext, chromium, type Page } from "playwright-core";

/** The browser executable used. */
export function chromiumPath(): string {
  return Deno.env.get("MINOC_CHROMIUM") ?? "/usr/bin/chromium";
}

const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** An open browser with its own profile. */
export interface TestBrowser extends AsyncDisposable {
  /** Console errors and page errors seen on any page, as text. */
  readonly errors: string[];
  /** A new page (1400×1000 unless told). */
  page(o?: { colorScheme?: "light" | "dark"; width?: number; height?: number }): Promise<Page>;
}

/** Starts Chromium; throws a clear error when it is not installed. */
export async function openBrowser(): Promise<TestBrowser> {
  const exe = chromiumPath();
  const found = await Deno.stat(exe).then(() => true, () => false);
  if (!found) {
    throw new Error(
      `Chromium not found at "${exe}": install it (apt-get install -y chromium) or set MINOC_CHROMIUM`,
    );
  }
  const profile = await Deno.makeTempDir({ prefix: "minoc_chromium_" });
  const errors: string[] = [];
  let ctx: BrowserContext;
  try {
    ctx = await chromium.launchPersistentContext(profile, {
      executablePath: exe,
      headless: true,
      args: ARGS,
    });
  } catch (error) {
    await Deno.remove(profile, { recursive: true }).catch(() => {});
    throw error;
  }
  return {
    errors,
    async page(o = {}) {
      const page = await ctx.newPage();
      await page.setViewportSize({ width: o.width ?? 1400, height: o.height ?? 1000 });
      await page.emulateMedia({ colorScheme: o.colorScheme ?? "light" });
      page.on("console", (m) => {
        if (m.type() === "error") errors.push(`console: ${m.text()}`);
      });
      page.on("pageerror", (e) => errors.push(`page error: ${e.message}`));
      return page;
    },
    async [Symbol.asyncDispose]() {
      await ctx.close().catch(() => {});
      await Deno.remove(profile, { recursive: true }).catch(() => {});
    },
  };
}
