import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";

/** Debian's Chromium, which .ci/run installs; no browser is ever downloaded. */
export const CHROMIUM = "/usr/bin/chromium";

/**
 * Headless Debian Chromium with the flags this closed network needs, or undefined (after printing why)
 * when it is not installed: call from a `before` hook and skip the suite on undefined.
 */
export async function _launchChromium(): Promise<Browser | undefined> {
  if (!existsSync(CHROMIUM)) {
    console.log(`      skipped: ${CHROMIUM} is missing (.ci/run installs Debian's chromium)`);
    return undefined;
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}
