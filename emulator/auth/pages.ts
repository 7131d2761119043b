import { escapeHtml } from "../http/util";

/** The emulator's login page, shown when the browser opens the authorize URL without a session. */
export function loginPage(returnTo: string, error?: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sign in: Account API emulator</title></head>
<body>
<h1>Sign in</h1>
${error ? `<p id="error" role="alert">${escapeHtml(error)}</p>` : ""}
<form method="post" action="/login">
  <input type="hidden" name="return_to" value="${escapeHtml(returnTo)}">
  <label>E-mail <input id="username" name="username" type="email" autocomplete="username" required></label>
  <label>Password <input id="password" name="password" type="password" autocomplete="current-password" required></label>
  <label>Two-factor code (if enabled) <input id="mfa_token" name="mfa_token" inputmode="numeric" autocomplete="one-time-code"></label>
  <button id="submit" type="submit">Sign in</button>
</form>
</body></html>`;
}

/** A plain error page (the authorize endpoint never redirects to an unregistered URI). */
export function errorPage(title: string, detail: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(detail)}</p></body></html>`;
}
