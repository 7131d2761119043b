import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";

const escapeHtml = (s: string): string => s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/**
 * Opens the authorize URL in the system browser, best effort (the URL is printed as well), without
 * putting it in any process's arguments: it carries the login's `state` (and the PKCE challenge), and a
 * local user who read it from the process table could race a code of their own account into the
 * callback (login CSRF). The browser is pointed at a page that redirects to it, written with mode 0600
 * in a fresh 0700 folder; the returned function removes both. `$BROWSER` (a command, as many tools read
 * it) replaces the platform's opener (`open`, `xdg-open`, `start`).
 *
 * @example
 * ```ts
 * const cleanup = openBrowser(auth.url);
 * try { await waitForCallback(); } finally { cleanup(); }
 * ```
 */
export function openBrowser(url: string, env: NodeJS.ProcessEnv = process.env): () => void {
  let dir: string | undefined;
  const cleanup = (): void => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  };
  try {
    dir = mkdtempSync(path.join(os.tmpdir(), "dns-account-login-")); // mode 0700
    const page = path.join(dir, "login.html");
    const href = escapeHtml(url);
    writeFileSync(
      page,
      `<!doctype html><html><head><meta charset="utf-8"><meta name="referrer" content="no-referrer"><meta http-equiv="refresh" content="0;url=${href}"><title>dns-account login</title></head><body><a href="${href}">Continue to log in</a></body></html>\n`,
      { mode: 0o600, flag: "wx" },
    );
    const target = pathToFileURL(page).href;
    const browser = env.BROWSER?.trim().split(/\s+/).filter(Boolean);
    const [cmd, ...args] = browser?.length
      ? [...browser, target]
      : process.platform === "darwin"
        ? ["open", target]
        : process.platform === "win32"
          ? ["cmd", "/c", "start", "", target]
          : ["xdg-open", target];
    const child = spawn(cmd!, args, { stdio: "ignore", detached: true });
    child.on("error", () => undefined);
    child.unref();
  } catch {
    // Printing the URL is enough.
  }
  return cleanup;
}
