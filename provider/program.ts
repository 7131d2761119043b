import * as pulumi from "@pulumi/pulumi";
import type { Client } from "../sdk/client/client";
import { ConfigError } from "../sdk/errors";
import type { SessionCredentials } from "../sdk/session";
import { sharedClient, sharedSession } from "../sdk/client/shared-session";
import { allowInsecureHttpFrom, type CredentialFields, fromConfig, fromEnvironment, isProblem, resolveCredentials, usableCredentials } from "./credentials";

/**
 * Credentials for {@link getAccessToken} and {@link getClient}; anything missing comes from stack config
 * (including `dns-account:profile` and `dns-account:credentialCommand`), then the environment.
 */
export interface CredentialArgs {
  baseUrl?: pulumi.Input<string>;
  username?: pulumi.Input<string>;
  password?: pulumi.Input<string>;
  mfaToken?: pulumi.Input<string>;
  refreshToken?: pulumi.Input<string>;
}

type Plain = { [K in keyof CredentialArgs]?: string | undefined };

/** Stack config of the running program (empty inside a provider host, which has none). */
function programConfig(): CredentialFields {
  return fromConfig((key) => pulumi.runtime.getConfig(key));
}

async function sessionArgs(args: Plain): Promise<{ baseUrl: string; credentials: SessionCredentials; allowInsecureHttp?: true }> {
  const r = resolveCredentials([
    ["args", args],
    ["config", programConfig()],
    ["environment", fromEnvironment()],
  ]);
  if (isProblem(r)) throw new ConfigError(r.reason, { field: r.property });
  const u = await usableCredentials(r);
  const credentials: SessionCredentials =
    u.mode === "password"
      ? { username: u.username, password: u.password, ...(u.mfaToken ? { mfaToken: u.mfaToken } : {}) }
      : u.mode === "refreshToken"
        ? { refreshToken: u.refreshToken }
        : { accessToken: u.accessToken, tokenType: "bearer", expiresIn: 0, expiresAt: u.expiresAt };
  const insecure = allowInsecureHttpFrom((key) => pulumi.runtime.getConfig(key)) ? { allowInsecureHttp: true as const } : {};
  return { baseUrl: u.baseUrl, credentials, ...insecure };
}

/**
 * The process-wide API client for these credentials (args, then stack config, then environment).
 * Usable inside `apply` and inside other dynamic providers; every caller with the same credentials shares
 * one session, so one login however many callers there are.
 *
 * @example
 * ```ts
 * export const deviceCount = pulumi.output(getClient()).apply(async (c) => (await c.devices.list()).length);
 * ```
 */
export async function getClient(args: Plain = {}): Promise<Client> {
  return sharedClient(await sessionArgs(args));
}

/**
 * A fresh access token at each program run, as a secret Output (same credential sources and shared
 * session as {@link getClient}).
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
      return sharedSession(await sessionArgs(plain as Plain)).accessToken();
    }),
  );
}
