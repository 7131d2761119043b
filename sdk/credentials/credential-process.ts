import { type ChildProcess, spawn } from "node:child_process";
import { lazy, zod } from "../lazy";
import { CredentialProcessError } from "../errors";
import { type Clock, systemClock } from "../http/transport";
import { isTime, MAX_EXPIRES_IN_SECONDS } from "../time";

/** Options of {@link runCredentialProcess}. */
export interface CredentialProcessOptions {
  /** The command line, run by the shell (like AWS `credential_process` and client-go exec plugins). */
  command: string;
  /** Kill the command (its whole process group) after this many ms; default 60 000. */
  timeoutMs?: number;
  /**
   * The environment to pick the command's variables from (default `process.env`). Only those of
   * {@link credentialCommandEnv} are passed on.
   */
  env?: NodeJS.ProcessEnv;
  clock?: Clock;
}

// What a command needs to run and find its own tools and files (a shell, a password manager, gpg, a
// cloud CLI's config in HOME), and the non-secret DNS_ACCOUNT_ settings. Nothing else: the environment of
// a pipeline or a Pulumi host holds secrets (DNS_ACCOUNT_PASSWORD, PULUMI_CONFIG, cloud keys).
const PASSED = new Set([
  "PATH", "HOME", "USER", "LOGNAME", "SHELL", "TERM", "TZ", "LANG", "LANGUAGE", "TMPDIR", "TMP", "TEMP",
  "XDG_RUNTIME_DIR", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME",
  "SSH_AUTH_SOCK", "GNUPGHOME", "GPG_TTY", "DISPLAY", "WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS",
  "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "no_proxy",
  "SYSTEMROOT", "SystemRoot", "COMSPEC", "ComSpec", "PATHEXT", "WINDIR", "windir", "USERPROFILE", "APPDATA", "LOCALAPPDATA",
  "DNS_ACCOUNT_PROFILE", "DNS_ACCOUNT_BASE_URL", "DNS_ACCOUNT_USERNAME", "DNS_ACCOUNT_CONFIG_DIR",
]);
// Never passed, even when named in DNS_ACCOUNT_CREDENTIAL_COMMAND_ENV: every secret the package reads
// from the environment (DNS_ACCOUNT_PASSWORD, _MFA_TOKEN, _REFRESH_TOKEN, _ACCESS_TOKEN, _API_KEY), any
// later DNS_ACCOUNT_ variable whose name says it holds a secret, and every PULUMI_ variable.
const NEVER = /^(DNS_ACCOUNT_\w*(PASSWORD|TOKEN|KEY|SECRET)\w*|PULUMI_.*)$/i;

/**
 * The environment a credential command gets: the variables it needs to run ({@link PASSED}: PATH, HOME,
 * locale, TMPDIR, proxy settings, agent sockets, Windows system folders, `DNS_ACCOUNT_PROFILE`,
 * `DNS_ACCOUNT_BASE_URL`, `DNS_ACCOUNT_USERNAME`, `DNS_ACCOUNT_CONFIG_DIR`), plus those named in
 * `DNS_ACCOUNT_CREDENTIAL_COMMAND_ENV` (comma-separated). Never a `DNS_ACCOUNT_` secret or a `PULUMI_`
 * variable.
 *
 * @example
 * ```ts
 * credentialCommandEnv({ PATH: "/bin", DNS_ACCOUNT_PASSWORD: "x", VAULT_ADDR: "https://v", DNS_ACCOUNT_CREDENTIAL_COMMAND_ENV: "VAULT_ADDR" });
 * // { PATH: "/bin", VAULT_ADDR: "https://v" }
 * ```
 */
export function credentialCommandEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const extra = new Set((env.DNS_ACCOUNT_CREDENTIAL_COMMAND_ENV ?? "").split(",").map((n) => n.trim()).filter(Boolean));
  const out: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || NEVER.test(name)) continue;
    if (PASSED.has(name) || name.startsWith("LC_") || extra.has(name)) out[name] = value;
  }
  return out;
}

// Commands still running: should this process exit first, their groups go with it (one listener).
const running = new Set<ChildProcess>();
function killRunning(): void {
  for (const child of running) killTree(child);
}
function forget(child: ChildProcess): void {
  running.delete(child);
  if (running.size === 0) process.removeListener("exit", killRunning);
}

/** Kills a command and everything it started (its process group; the command alone on Windows). */
function killTree(child: ChildProcess): void {
  try {
    if (process.platform !== "win32" && child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
    else child.kill("SIGKILL");
  } catch {
    // Already gone.
  }
}

/** What a credential command gives: an access token (with expiry) and/or a refresh token. */
export interface ProcessCredentials {
  accessToken?: string;
  refreshToken?: string;
  /** Epoch ms, when the command said. */
  expiresAt?: number;
  /** The service the token is for, when the command printed one. */
  baseUrl?: string;
  /** Which of the command's fields said {@link ProcessCredentials.baseUrl} (messages name it as the command wrote it). */
  baseUrlField?: "baseUrl" | "base_url";
}

const MAX_OUTPUT = 1024 * 1024;

// RFC 6749 appendix A: a token is 1*VSCHAR (printable ASCII). A base URL holds no control or format
// characters (the URL parser would drop or encode them, and `status` and `env` print it).
const TOKEN = /^[\x20-\x7e]+$/;
const NOT_PLAIN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;
const TOKEN_FIELDS = new Set(["accessToken", "access_token", "refreshToken", "refresh_token"]);

const outputSchema = lazy(() => {
  const { z } = zod();
  const token = z.string().regex(TOKEN);
  return z
  .object({
    accessToken: token.optional(),
    access_token: token.optional(),
    refreshToken: token.optional(),
    refresh_token: token.optional(),
    expiresAt: z.union([z.string(), z.number()]).optional(),
    expires_at: z.union([z.string(), z.number()]).optional(),
    expires_in: z
      .union([z.number(), z.string().regex(/^\d{1,15}$/).transform(Number)])
      .pipe(z.number().int().positive().max(MAX_EXPIRES_IN_SECONDS))
      .optional(),
    baseUrl: z.string().min(1).refine((s) => !NOT_PLAIN.test(s)).optional(),
    base_url: z.string().min(1).refine((s) => !NOT_PLAIN.test(s)).optional(),
  })
  .loose();
});

/** Why a field of the command's JSON was refused, naming the field and never its value. */
function wrongField(field: string): string {
  if (TOKEN_FIELDS.has(field)) return `The credential command's "${field}" must be a non-empty string of printable ASCII (RFC 6749), with no control characters`;
  if (field === "baseUrl" || field === "base_url") return `The credential command's "${field}" must be a non-empty URL with no control or format characters`;
  return `The credential command's JSON has a wrong "${field}"`;
}

/**
 * Runs a configured credential command and reads a token set from its stdout: JSON with `accessToken`
 * (and `expiresAt`, RFC 3339 or epoch ms) and/or `refreshToken`, and the `baseUrl` they were issued
 * for; the snake_case names are accepted too (`access_token`, `refresh_token`, `expires_in`, `base_url`,
 * and `expires_at`, RFC 3339 or epoch seconds as OAuth clients write it). A field and its snake_case twin
 * that differ are refused (for the base URL: a token must never go to an origin it was not issued for). Its stderr goes straight to ours (the user sees prompts and errors) and is never
 * parsed. A non-zero exit, a timeout or output that is not such JSON is a {@link CredentialProcessError}.
 * The command runs in a process group of its own, with no stdin and only {@link credentialCommandEnv}'s
 * variables; at the timeout the whole group is killed and the call fails at once, even if a background
 * job still holds stdout.
 *
 * @example
 * ```ts
 * const creds = await runCredentialProcess({ command: "vault read -format=json -field=data secret/dns" });
 * ```
 */
export function runCredentialProcess(options: CredentialProcessOptions): Promise<ProcessCredentials> {
  const clock = options.clock ?? systemClock;
  const timeoutMs = options.timeoutMs ?? 60_000;
  return new Promise((resolve, reject) => {
    // A process group of its own (detached), so a timeout can kill the shell and whatever it started.
    const child = spawn(options.command, {
      shell: true,
      detached: process.platform !== "win32",
      stdio: ["ignore", "pipe", "inherit"],
      env: credentialCommandEnv(options.env ?? process.env),
    });
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    running.add(child);
    if (running.size === 1) process.once("exit", killRunning);
    const fail = (err: Error): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      forget(child);
      killTree(child);
      // Not waiting for "close": a background job holding stdout open would keep it from ever coming.
      child.stdout?.destroy();
      reject(err);
    };
    const timer = setTimeout(() => fail(new CredentialProcessError(`The credential command did not finish within ${timeoutMs} ms`)), timeoutMs);
    child.stdout!.on("data", (d: Buffer) => {
      size += d.length;
      if (size > MAX_OUTPUT) fail(new CredentialProcessError("The credential command printed more than 1 MiB"));
      else chunks.push(d);
    });
    child.once("error", (err) => fail(new CredentialProcessError(`The credential command could not be started (${(err as NodeJS.ErrnoException).code ?? "error"})`)));
    child.once("close", (code, signal) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      forget(child);
      if (code !== 0) {
        return reject(new CredentialProcessError(`The credential command exited with ${signal ? `signal ${signal}` : `code ${code}`}`));
      }
      let json: unknown;
      try {
        json = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        return reject(new CredentialProcessError("The credential command did not print JSON on stdout"));
      }
      const parsed = outputSchema().safeParse(json);
      if (!parsed.success) {
        const field = parsed.error.issues[0]?.path.map(String).join(".") || "(root)";
        return reject(new CredentialProcessError(wrongField(field), { field }));
      }
      const o = parsed.data;
      // A field and its snake_case twin that say different things: which one is meant is unknown, so neither is used.
      for (const [camel, snake] of [["accessToken", "access_token"], ["refreshToken", "refresh_token"], ["baseUrl", "base_url"]] as const) {
        if (o[camel] !== undefined && o[snake] !== undefined && o[camel] !== o[snake]) {
          return reject(new CredentialProcessError(`The credential command printed both "${camel}" and "${snake}", and they differ`, { field: camel }));
        }
      }
      const accessToken = o.accessToken ?? o.access_token;
      const refreshToken = o.refreshToken ?? o.refresh_token;
      if (!accessToken && !refreshToken) {
        return reject(new CredentialProcessError('The credential command printed neither "accessToken" nor "refreshToken"', { field: "accessToken" }));
      }
      const baseUrlField = o.baseUrl !== undefined ? "baseUrl" : o.base_url !== undefined ? "base_url" : undefined;
      const baseUrl = o.baseUrl ?? o.base_url;
      // expiresAt: RFC 3339 or epoch milliseconds (as JavaScript counts); expires_at: RFC 3339 or epoch
      // seconds, as OAuth clients store it (Authlib, requests-oauthlib). Both given, they must agree.
      const at = (field: "expiresAt" | "expires_at", v: string | number | undefined): number | Error | undefined => {
        if (v === undefined) return undefined;
        const ms = typeof v === "number" ? (field === "expires_at" ? v * 1000 : v) : Date.parse(v);
        return isTime(ms) ? ms : new CredentialProcessError(`The credential command's "${field}" is not an RFC 3339 time or epoch ${field === "expires_at" ? "seconds" : "milliseconds"}`, { field });
      };
      const camelAt = at("expiresAt", o.expiresAt);
      const snakeAt = at("expires_at", o.expires_at);
      if (camelAt instanceof Error) return reject(camelAt);
      if (snakeAt instanceof Error) return reject(snakeAt);
      if (camelAt !== undefined && snakeAt !== undefined && camelAt !== snakeAt) {
        return reject(new CredentialProcessError('The credential command printed both "expiresAt" and "expires_at", and they differ', { field: "expiresAt" }));
      }
      let expiresAt = camelAt ?? snakeAt;
      if (expiresAt === undefined && o.expires_in !== undefined) expiresAt = clock.now() + o.expires_in * 1000;
      resolve({
        ...(accessToken ? { accessToken } : {}),
        ...(refreshToken ? { refreshToken } : {}),
        ...(expiresAt !== undefined ? { expiresAt } : {}),
        ...(baseUrl && baseUrlField ? { baseUrl, baseUrlField } : {}),
      });
    });
  });
}
