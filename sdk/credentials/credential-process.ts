import { spawn } from "node:child_process";
import { lazy, zod } from "../lazy";
import { CredentialProcessError } from "../errors";
import { type Clock, systemClock } from "../http/transport";
import { isTime, MAX_EXPIRES_IN_SECONDS } from "../time";

/** Options of {@link runCredentialProcess}. */
export interface CredentialProcessOptions {
  /** The command line, run by the shell (like AWS `credential_process` and client-go exec plugins). */
  command: string;
  /** Kill the command after this many ms; default 60 000. */
  timeoutMs?: number;
  env?: NodeJS.ProcessEnv;
  clock?: Clock;
}

/** What a credential command gives: an access token (with expiry) and/or a refresh token. */
export interface ProcessCredentials {
  accessToken?: string;
  refreshToken?: string;
  /** Epoch ms, when the command said. */
  expiresAt?: number;
  baseUrl?: string;
}

const MAX_OUTPUT = 1024 * 1024;

const outputSchema = lazy(() => {
  const { z } = zod();
  return z
  .object({
    accessToken: z.string().min(1).optional(),
    access_token: z.string().min(1).optional(),
    refreshToken: z.string().min(1).optional(),
    refresh_token: z.string().min(1).optional(),
    expiresAt: z.union([z.string(), z.number()]).optional(),
    expires_in: z
      .union([z.number(), z.string().regex(/^\d{1,15}$/).transform(Number)])
      .pipe(z.number().int().positive().max(MAX_EXPIRES_IN_SECONDS))
      .optional(),
    baseUrl: z.string().min(1).optional(),
  })
  .loose();
});

/**
 * Runs a configured credential command and reads a token set from its stdout: JSON with `accessToken`
 * (and `expiresAt`, RFC 3339 or epoch ms) and/or `refreshToken`; the token endpoint's snake_case names
 * are accepted too. Its stderr goes straight to ours (the user sees prompts and errors) and is never
 * parsed. A non-zero exit, a timeout or output that is not such JSON is a {@link CredentialProcessError}.
 *
 * @example
 * ```ts
 * const creds = await runCredentialProcess({ command: "vault read -format=json -field=data secret/dns" });
 * ```
 */
export function runCredentialProcess(options: CredentialProcessOptions): Promise<ProcessCredentials> {
  const clock = options.clock ?? systemClock;
  return new Promise((resolve, reject) => {
    const child = spawn(options.command, { shell: true, stdio: ["ignore", "pipe", "inherit"], env: options.env ?? process.env });
    const chunks: Buffer[] = [];
    let size = 0;
    let failed: Error | undefined;
    const fail = (err: Error): void => {
      failed ??= err;
      child.kill("SIGKILL");
    };
    const timer = setTimeout(() => fail(new CredentialProcessError(`The credential command did not finish within ${options.timeoutMs ?? 60_000} ms`)), options.timeoutMs ?? 60_000);
    child.stdout!.on("data", (d: Buffer) => {
      size += d.length;
      if (size > MAX_OUTPUT) fail(new CredentialProcessError("The credential command printed more than 1 MiB"));
      else chunks.push(d);
    });
    child.once("error", (err) => fail(new CredentialProcessError(`The credential command could not be started (${(err as NodeJS.ErrnoException).code ?? "error"})`)));
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      if (failed) return reject(failed);
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
        return reject(new CredentialProcessError(`The credential command's JSON has a wrong "${field}"`, { field }));
      }
      const o = parsed.data;
      const accessToken = o.accessToken ?? o.access_token;
      const refreshToken = o.refreshToken ?? o.refresh_token;
      if (!accessToken && !refreshToken) {
        return reject(new CredentialProcessError('The credential command printed neither "accessToken" nor "refreshToken"', { field: "accessToken" }));
      }
      let expiresAt: number | undefined;
      if (o.expiresAt !== undefined) {
        expiresAt = typeof o.expiresAt === "number" ? o.expiresAt : Date.parse(o.expiresAt);
        if (!isTime(expiresAt)) return reject(new CredentialProcessError('The credential command\'s "expiresAt" is not an RFC 3339 time or epoch milliseconds', { field: "expiresAt" }));
      } else if (o.expires_in !== undefined) expiresAt = clock.now() + o.expires_in * 1000;
      resolve({
        ...(accessToken ? { accessToken } : {}),
        ...(refreshToken ? { refreshToken } : {}),
        ...(expiresAt !== undefined ? { expiresAt } : {}),
        ...(o.baseUrl ? { baseUrl: o.baseUrl } : {}),
      });
    });
  });
}
