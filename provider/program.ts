import * as pulumi from "@pulumi/pulumi";
import type { Client } from "../sdk/client/client";
import { ConfigError } from "../sdk/errors";
import type { Session, SessionCredentials } from "../sdk/session";
// The client (undici's users, the 1.15 model) loads on the first getClient/getAccessToken call.
const shared = (): typeof import("../sdk/client/shared-session") => require("../sdk/client/shared-session") as typeof import("../sdk/client/shared-session");
import { allowInsecureHttpFrom, type CredentialFields, fromConfig, isProblem, problemError, providerSources, resolveCredentials, usableCredentials } from "./credentials";
import { revokeAtExit } from "./shared/exit-revocation";

/**
 * Credentials for {@link getAccessToken} and {@link getClient}. Every field is optional and may be an
 * `Output`; anything missing comes from stack config (`dns-account:*`), then the environment
 * (`DNS_ACCOUNT_*`). The first source holding a password, a refresh token, a profile or a credential
 * command decides.
 *
 * @example
 * ```ts
 * const client = await getClient({ profile: "billing" });
 * const token = getAccessToken({ username: "me@example.com", password: config.requireSecret("password") });
 * ```
 */
export interface CredentialArgs {
  /** Base address of the service; default `https://api.adguard-dns.io` (or the profile's/command's). */
  baseUrl?: pulumi.Input<string> | undefined;
  /** Account e-mail, for a password login. */
  username?: pulumi.Input<string> | undefined;
  /** Account password (pass a secret). The refresh token it mints is revoked when the program exits. */
  password?: pulumi.Input<string> | undefined;
  /** Current MFA code for a two-factor account: used once per process. */
  mfaToken?: pulumi.Input<string> | undefined;
  /** An existing refresh token to use instead of a password; never revoked by the program. */
  refreshToken?: pulumi.Input<string> | undefined;
  /** A profile of the CLI's token store (`dns-account login --profile P`); its token is never revoked. */
  profile?: pulumi.Input<string> | undefined;
  /** A command printing credentials as JSON (e.g. `dns-account token --json`), run by the shell. */
  credentialCommand?: pulumi.Input<string> | undefined;
  /**
   * An API key (pass a secret): `getClient` sends it as `Authorization: ApiKey …`, with no login. Also read
   * from stack config `dns-account:apiKey` (set it with `--secret`) and `DNS_ACCOUNT_API_KEY`.
   * `getAccessToken` ignores it: an API key has no access token.
   */
  apiKey?: pulumi.Input<string> | undefined;
}

type Plain = { [K in keyof CredentialArgs]?: string | undefined };

const FIELDS = ["baseUrl", "username", "password", "mfaToken", "refreshToken", "profile", "credentialCommand", "apiKey"] as const;

/** Stack config of the running program (empty inside a provider host, which has none). */
function programConfig(): CredentialFields {
  return fromConfig((key) => pulumi.runtime.getConfig(key));
}

// `isKnown` and `promise()` are internal to Output but stable across Pulumi 3.x: they are the only way to
// tell a value that is unknown during preview (which `apply` would silently never deliver) from a late one.
interface OutputInternals {
  isKnown: Promise<boolean>;
  promise(): Promise<unknown>;
}

/** Unwraps each Input (plain value, Promise or Output); a value unknown during preview is a ConfigError naming it. */
async function plainArgs(args: CredentialArgs): Promise<Plain> {
  const out: Plain = {};
  for (const field of FIELDS) {
    const input = args?.[field];
    if (input === undefined) continue;
    let value: unknown;
    if (pulumi.Output.isInstance(input)) {
      const o = input as unknown as OutputInternals;
      if (!(await o.isKnown)) {
        throw new ConfigError(`"${field}" is not known yet (preview): call getClient inside an apply of the Output it depends on`, { field });
      }
      value = await o.promise();
    } else {
      value = await input;
    }
    if (value !== undefined && value !== null && typeof value !== "string") throw new ConfigError(`"${field}" must be a string`, { field });
    if (typeof value === "string") out[field] = value;
  }
  return out;
}

type Resolved = ({ baseUrl: string; credentials: SessionCredentials } | { baseUrl: string; apiKey: string }) & { allowInsecureHttp?: true };

/** "No credentials" where an API key is accepted too (getClient and the lookups): it names the key first. */
const NO_CREDENTIALS_WITH_API_KEY = {
  property: "password",
  reason:
    "No credentials: pass apiKey, a password (with username), refreshToken, profile or credentialCommand as arguments, " +
    "set them as stack config (pulumi config set --secret dns-account:apiKey …, dns-account:password, dns-account:refreshToken, " +
    "dns-account:profile, dns-account:credentialCommand), set DNS_ACCOUNT_API_KEY, DNS_ACCOUNT_ACCESS_TOKEN, DNS_ACCOUNT_REFRESH_TOKEN " +
    "or DNS_ACCOUNT_USERNAME with DNS_ACCOUNT_PASSWORD, or run dns-account login (the default profile)",
};

async function sessionArgs(args: Plain, options: { apiKey?: boolean } = {}): Promise<Resolved> {
  const r = resolveCredentials(providerSources(args, programConfig()), {
    ...options,
    accessToken: true,
    defaultProfile: true,
    ...(options.apiKey ? { none: NO_CREDENTIALS_WITH_API_KEY } : {}),
  });
  if (isProblem(r)) throw problemError(r);
  const u = await usableCredentials(r);
  const insecure = allowInsecureHttpFrom((key) => pulumi.runtime.getConfig(key)) ? { allowInsecureHttp: true as const } : {};
  if (u.mode === "apiKey") {
    if (!options.apiKey) throw new ConfigError("An API key has no access token: use getClient, or give a password or refresh token", { field: "apiKey" });
    return { baseUrl: u.baseUrl, apiKey: u.apiKey, ...insecure };
  }
  const credentials: SessionCredentials =
    u.mode === "password"
      ? { username: u.username, password: u.password, ...(u.mfaToken ? { mfaToken: u.mfaToken } : {}) }
      : u.mode === "refreshToken"
        ? { refreshToken: u.refreshToken }
        : { accessToken: u.accessToken, tokenType: "bearer", expiresIn: 0, expiresAt: u.expiresAt };
  return { baseUrl: u.baseUrl, credentials, ...insecure };
}

async function session(args: CredentialArgs): Promise<{ session: Session }> {
  const resolved = await sessionArgs(await plainArgs(args));
  if ("apiKey" in resolved) throw new ConfigError("An API key has no access token", { field: "apiKey" });
  return sharedFor(resolved);
}

function sharedFor(options: { baseUrl: string; credentials: SessionCredentials; allowInsecureHttp?: true }): { session: Session } {
  const s = shared().sharedSession(options);
  if ("password" in options.credentials) revokeAtExit(s);
  return { session: s };
}

/**
 * The process-wide API client for these credentials (args, then stack config, then environment). Args
 * may be Outputs, as for {@link getAccessToken}. Usable inside `apply` and inside other dynamic providers;
 * every caller with the same credentials shares one session, so one login however many callers there
 * are. A refresh token minted by a password login is revoked when the process exits.
 *
 * @example
 * ```ts
 * export const deviceCount = pulumi.output(getClient({ profile: "ops" })).apply(async (c) => (await c.devices.list()).length);
 * ```
 */
export async function getClient(args: CredentialArgs = {}): Promise<Client> {
  const resolved = await sessionArgs(await plainArgs(args), { apiKey: true });
  if ("apiKey" in resolved) return shared().sharedClient(resolved);
  // One resolve of the options: the shared client makes (or finds) the session it draws tokens from.
  const client = shared().sharedClient(resolved);
  if ("password" in resolved.credentials) revokeAtExit(client.session);
  return client;
}

/**
 * A fresh access token at each program run, as a secret Output (same credential sources and shared
 * session as {@link getClient}). With a password, the token is valid for the run only: the refresh token
 * behind it is revoked when the program exits. Use a `Token` for a credential that outlives the run.
 *
 * @example
 * ```ts
 * const token = getAccessToken();
 * new command.local.Command("call", { create: "curl …", environment: { TOKEN: token } });
 * ```
 */
export function getAccessToken(args: CredentialArgs = {}): pulumi.Output<string> {
  return pulumi.secret(
    pulumi.output(args).apply(async (plain) => {
      const { session: s } = await session(plain as Plain);
      return s.accessToken();
    }),
  );
}
