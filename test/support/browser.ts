import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";

/** Debian's Chromium, which .ci/run installs; no browser is ever downloaded. */
export const CHROMIUM = "/usr/bin/chromium";
/** Why a browser test is skipped when {@link _launchChromium} gives nothing. */
export const NO_CHROMIUM = `${CHROMIUM} is missing (.ci/run installs Debian's chromium)`;

/**
 * Headless Debian Chromium with the flags this closed network needs, or undefined when it is not
 * installed: call from a `before` hook and skip the suite on undefined, with {@link NO_CHROMIUM}.
 */
export async function _launchChromium(): Promise<Browser | undefined> {
  if (!existsSync(CHROMIUM)) return undefined;
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}
