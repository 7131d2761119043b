import * as pulumi from "@pulumi/pulumi";
import type { Client } from "../sdk/client";
import { ConfigError } from "../sdk/errors";
import type { SessionCredentials } from "../sdk/session";
import { sharedClient, sharedSession } from "../sdk/shared-session";
import { type CredentialFields, fromConfig, fromEnvironment, isProblem, resolveCredentials } from "./credentials";

/** Credentials for {@link getAccessToken} and {@link getClient}; anything missing comes from config, then env. */
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

function sessionArgs(args: Plain): { baseUrl: string; credentials: SessionCredentials } {
  const r = resolveCredentials([
    ["args", args],
    ["config", programConfig()],
    ["environment", fromEnvironment()],
  ]);
  if (isProblem(r)) throw new ConfigError(r.reason, { field: r.property });
  const credentials: SessionCredentials =
    r.mode === "password"
      ? { username: r.username, password: r.password, ...(r.mfaToken ? { mfaToken: r.mfaToken } : {}) }
      : { refreshToken: r.refreshToken };
  return { baseUrl: r.baseUrl, credentials };
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
  const { baseUrl, credentials } = sessionArgs(args);
  return sharedClient({ baseUrl, credentials });
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
      const { baseUrl, credentials } = sessionArgs(plain as Plain);
      return sharedSession({ baseUrl, credentials }).accessToken();
    }),
  );
}
