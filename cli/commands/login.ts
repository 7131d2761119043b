/** `dns-account login`: a password (and MFA code), a refresh token, an API key, or the browser. */
import type { TokenSet } from "../../sdk/auth/token-response";
import { checkBaseUrl, type Command, type Values, env, errors, json, grants, insecure, insecureOption, iso, newStore, note, out, profileOf, profileOption, prompt, revoke, UsageError } from "../command";

async function passwordLogin(v: Values, baseUrl: string): Promise<{ username: string; set: TokenSet & { refreshToken: string } }> {
  const { ask, canPrompt, readStdin } = prompt();
  const { NoCredentialsError, MfaRequiredError } = errors();
  const interactive = canPrompt();
  const username = (v.username as string | undefined) ?? env.DNS_ACCOUNT_USERNAME ?? (interactive ? await ask("E-mail: ") : undefined);
  if (!username) throw new NoCredentialsError("No username: pass --username or set DNS_ACCOUNT_USERNAME");
  // Flags beat the environment: --password-stdin is read even when DNS_ACCOUNT_PASSWORD is set.
  let password = v["password-stdin"] ? undefined : env.DNS_ACCOUNT_PASSWORD;
  if (v["password-stdin"]) {
    password = await readStdin();
    if (!password) throw new NoCredentialsError("--password-stdin read an empty password");
  }
  if (!password && interactive) {
    password = await ask("Password: ", true);
    if (!password) throw new NoCredentialsError("The password is empty: nothing was sent (run the command again and type it)");
  }
  if (!password) {
    throw new NoCredentialsError("No terminal to ask for the password: set DNS_ACCOUNT_PASSWORD or pass --password-stdin");
  }
  let mfaToken = env.DNS_ACCOUNT_MFA_TOKEN;
  if (!mfaToken && v.mfa) {
    if (!interactive) throw new NoCredentialsError("No terminal to ask for the MFA code: set DNS_ACCOUNT_MFA_TOKEN");
    mfaToken = await ask("Two-factor code: ", true);
  }
  const attempt = (code: string | undefined) => grants().issueToken({ baseUrl, username, password: password!, ...insecure(v), ...(code ? { mfaToken: code } : {}) });
  try {
    return { username, set: await attempt(mfaToken) };
  } catch (err) {
    if (!(err instanceof MfaRequiredError) || mfaToken) throw err;
    if (!interactive) {
      const mfa = new MfaRequiredError({ status: 401 });
      mfa.message = "This account uses two-factor authentication: set DNS_ACCOUNT_MFA_TOKEN to the current MFA code, or run dns-account login --mfa at a terminal";
      throw mfa;
    }
    const code = await ask("Two-factor code: ", true);
    if (!code) throw new NoCredentialsError("The MFA code is empty: nothing was sent (run the command again, or use --mfa / DNS_ACCOUNT_MFA_TOKEN)");
    return { username, set: await attempt(code) };
  }
}

/**
 * Where a secret from the environment (a refresh token to adopt, a password) may be sent: the origin of
 * `DNS_ACCOUNT_BASE_URL` beside it, else the service's. `--base-url`, or the profile's earlier base URL
 * when neither is set, naming another origin is a `base_url_conflict` naming both (issue 22 §1).
 */
function envSecretBaseUrl(v: Values, secret: string, previous: string | undefined): string {
  const { agreeOrigins, isProblem, problemError } = require("../../sdk/credentials/resolve") as typeof import("../../sdk/credentials/resolve");
  const flag = v["base-url"] as string | undefined;
  const r = agreeOrigins({
    secret,
    ...(flag ? { steer: { url: flag, name: "--base-url" } } : {}),
    ...(env.DNS_ACCOUNT_BASE_URL ? { own: { url: env.DNS_ACCOUNT_BASE_URL, name: "DNS_ACCOUNT_BASE_URL" } } : {}),
    ...(previous ? { lower: { url: previous, name: `the profile's base URL (${profileOf(v)})` } } : {}),
  });
  if (isProblem(r)) throw problemError(r);
  return r.baseUrl;
}

export const login: Command = {
  summary: "Log in and store a profile (password and MFA code, a refresh token, an API key, or --browser)",
  usage: `Usage: dns-account login [--profile P] [--username U] [--mfa] [--password-stdin] [--base-url URL] [--allow-insecure-http] [--json]
     dns-account login --api-key-stdin [--profile P] [--base-url URL] [--json]
     dns-account login --browser --client-id ID [--flow code|implicit] [--redirect-port N] [--no-open] [--profile P] [--base-url URL]

The password is read from DNS_ACCOUNT_PASSWORD, from stdin with --password-stdin, or asked on the
terminal without echo; never from an argument. The MFA code is asked when the service needs one
(or up front with --mfa; DNS_ACCOUNT_MFA_TOKEN in pipelines). With DNS_ACCOUNT_REFRESH_TOKEN set
(and no password), that refresh token is checked and stored instead. Without a terminal, missing
values are an error, not a prompt. The profile keeps base URL, username and tokens, never the
password or the MFA code. --api-key-stdin reads an API key (issued in the service's dashboard) from
stdin, checks it with one API call and stores it: no token is minted and nothing is refreshed.
--browser logs in through a listener on 127.0.0.1 with Authorization Code + PKCE (--flow code, the
default), storing the refresh token the exchange returns; --flow implicit uses the implicit grant,
which yields no refresh token, so that login lasts until the access token expires. Ctrl-C at a prompt exits 130,
Ctrl-D exits 1, and nothing is stored. --allow-insecure-http (or DNS_ACCOUNT_ALLOW_INSECURE_HTTP=1)
permits http:// to a host other than loopback, e.g. an emulator at http://emulator:8787 in
docker-compose; tokens then cross that network in clear.`,
  options: {
    ...profileOption,
    ...insecureOption,
    username: { type: "string", short: "u" },
    mfa: { type: "boolean" },
    "password-stdin": { type: "boolean" },
    "api-key-stdin": { type: "boolean" },
    "base-url": { type: "string" },
    browser: { type: "boolean" },
    flow: { type: "string" },
    "client-id": { type: "string" },
    "redirect-port": { type: "string" },
    "no-open": { type: "boolean" },
    json: { type: "boolean" },
  },
  async run(v) {
    const profile = profileOf(v);
    const store = newStore(v);
    const previous = await store.profile(profile);
    const adopting = Boolean(env.DNS_ACCOUNT_REFRESH_TOKEN && !env.DNS_ACCOUNT_PASSWORD && !v.username && !v["password-stdin"] && !v.mfa);
    const typed = v["api-key-stdin"] || v.browser;
    const fromEnv = typed ? undefined : adopting ? "DNS_ACCOUNT_REFRESH_TOKEN" : !v["password-stdin"] && env.DNS_ACCOUNT_PASSWORD ? "DNS_ACCOUNT_PASSWORD" : undefined;
    const baseUrl = fromEnv ? envSecretBaseUrl(v, fromEnv, previous?.baseUrl) : ((v["base-url"] as string | undefined) ?? env.DNS_ACCOUNT_BASE_URL ?? previous?.baseUrl ?? (require("../../sdk/http/transport") as typeof import("../../sdk/http/transport")).DEFAULT_BASE_URL);
    // Checked here, so a wrong URL is named as the user gave it (the SDK's message says "baseUrl").
    const urlName = v["base-url"] !== undefined ? "--base-url" : env.DNS_ACCOUNT_BASE_URL !== undefined ? "DNS_ACCOUNT_BASE_URL" : `The base URL of profile "${profile}"`;
    checkBaseUrl(baseUrl, urlName, v);
    let username: string | undefined;
    let set: TokenSet;
    let adopted = false;
    if (v["api-key-stdin"]) {
      if (v.browser || v["password-stdin"]) throw new UsageError("--api-key-stdin goes without --browser and --password-stdin");
      // At a terminal the key is asked without echo, like the password; piped, it is read from stdin.
      const { ask, canPrompt, readStdin } = prompt();
      const apiKey = (canPrompt() ? await ask("API key: ", true) : await readStdin()).trim();
      if (!apiKey) throw new (errors().NoCredentialsError)("--api-key-stdin read an empty API key");
      const { createClient } = require("../../sdk/client/client") as typeof import("../../sdk/client/client");
      const client = createClient({ baseUrl, apiKey, retry: { retries: 0 }, ...insecure(v) });
      try {
        await client.account.limits(); // a wrong or deleted key fails here (invalid_api_key), before anything is stored
      } finally {
        await client.close();
      }
      await store.put(profile, { baseUrl, apiKey });
      if (previous?.refreshToken) {
        await revoke().revokeToken({ baseUrl: previous.baseUrl, refreshToken: previous.refreshToken, ...insecure(v) }).catch(() => note("Could not revoke the profile's previous refresh token."));
      }
      if (v.json) out(json({ profile, baseUrl, apiKey: true }));
      else note(`Stored the API key in profile "${profile}" (${store.file}); it is valid until deleted in the dashboard.`);
      return;
    }
    if (v.browser) {
      const clientId = v["client-id"] as string | undefined;
      if (!clientId) throw new UsageError("--browser needs --client-id");
      const port = v["redirect-port"] === undefined ? 0 : Number(v["redirect-port"]);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError("--redirect-port must be an integer from 0 to 65535");
      const flow = (v.flow as string | undefined) ?? "code";
      if (flow !== "code" && flow !== "implicit") throw new UsageError("--flow must be code or implicit");
      const browser = { baseUrl, clientId, redirectPort: port, open: !v["no-open"], onUrl: (url: string) => note(`Open this URL in your browser to log in:\n${url}`) };
      if (flow === "code") {
        const { codeLogin } = require("../code-login") as typeof import("../code-login");
        set = await codeLogin(browser);
      } else {
        const { browserLogin } = require("../browser-login") as typeof import("../browser-login");
        set = await browserLogin(browser);
        note(`The implicit grant gives no refresh token: this login lasts until ${iso(set.expiresAt)}; then run dns-account login again.`);
      }
    } else if (adopting) {
      // Adopting a refresh token someone else minted: stored as adopted, so logout forgets it, never revokes it.
      set = await grants().refreshToken({ baseUrl, refreshToken: env.DNS_ACCOUNT_REFRESH_TOKEN!, ...insecure(v) });
      username = previous?.username;
      adopted = true;
    } else {
      const login = await passwordLogin(v, baseUrl);
      username = login.username;
      set = login.set;
    }
    await store.put(profile, {
      baseUrl,
      ...(username ? { username } : {}),
      ...(set.refreshToken ? { refreshToken: set.refreshToken } : {}),
      accessToken: set.accessToken,
      expiresAt: set.expiresAt,
      expiresIn: set.expiresIn,
      ...(adopted ? { adopted: true } : {}),
    });
    // A replaced refresh token this CLI minted would stay valid forever: revoke it (best effort).
    if (previous?.refreshToken && previous.refreshToken !== set.refreshToken && !previous.adopted) {
      await revoke().revokeToken({ baseUrl: previous.baseUrl, refreshToken: previous.refreshToken, ...insecure(v) }).catch(() => note("Could not revoke the profile's previous refresh token."));
    }
    if (v.json) out(json({ profile, baseUrl, username: username ?? null, expiresAt: iso(set.expiresAt), refreshToken: Boolean(set.refreshToken) }));
    else note(`Logged in${username ? ` as ${username}` : ""} (profile "${profile}", ${store.file}); access token valid until ${iso(set.expiresAt)}.`);
  },
};
