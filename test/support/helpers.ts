import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { inspect } from "node:util";
import { type Emulator, type EmulatorOptions, startEmulator } from "../../emulator";
import { createClient, type RawResponse } from "../../sdk";

/** The repository root (the folder with package.json), from the compiled test's location. */
export function _repoRoot(): string {
  let dir = __dirname;
  while (!existsSync(path.join(dir, "package.json"))) dir = path.dirname(dir);
  return dir;
}

/** `../shared` beside the repository, or undefined when absent. */
export function _sharedDir(): string | undefined {
  const dir = path.resolve(_repoRoot(), "..", "shared");
  return existsSync(dir) ? dir : undefined;
}

/**
 * The repository's facts-only copy of the service's OpenAPI description of `version` (made from
 * ../shared/reference by `npm run reference`): always present, so no test needs ../shared to read facts.
 */
export function _referenceFacts(version: "1.11" | "1.15"): string {
  return path.join(_repoRoot(), "scripts", "reference", `dns-api-openapi-${version}.facts.json`);
}

/** A bare response for parser tests. */
export function _raw(status: number, body: string | Buffer | object, headers: Record<string, string> = {}): RawResponse {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(typeof body === "string" ? body : JSON.stringify(body));
  return { status, headers: { "content-type": "application/json", ...headers }, body: bytes };
}

/** Starts an emulator before the suite's tests and closes it after; returns a getter. */
export function _useEmulator(options: EmulatorOptions = {}): () => Emulator {
  let emu: Emulator | undefined;
  before(async () => {
    emu = await startEmulator(options);
  });
  afterEach(() => {
    emu?.clearFaults();
  });
  after(async () => {
    await emu?.close();
  });
  return () => {
    if (!emu) throw new Error("emulator not started");
    return emu;
  };
}

/**
 * Runs every closer in turn even when one fails, then throws the first failure: for `after` hooks,
 * so that one server failing to close (or an assertion before it) leaves none of the others open.
 *
 * @example
 * ```ts
 * after(() => _closeAll(() => _assertNoSecrets(host.output(), secrets), () => host?.close(), () => emu?.close()));
 * ```
 */
export async function _closeAll(...steps: (() => unknown)[]): Promise<void> {
  const failures: unknown[] = [];
  for (const step of steps) {
    try {
      await step();
    } catch (err) {
      failures.push(err);
    }
  }
  if (failures.length > 0) throw failures[0];
}

/** The default emulator user. */
export const USER = { username: "user@example.com", password: "emulator-password" } as const;
/** The default MFA user (any 6-digit code, once). */
export const MFA_USER = { username: "mfa@example.com", password: "emulator-password" } as const;

/** Every way an error can reach a log: message, stack, toJSON, util.inspect, String(). */
export function _errorText(err: unknown): string {
  const e = err as Error & { toJSON?: () => unknown };
  return [
    String(e),
    e.message,
    e.stack ?? "",
    JSON.stringify(e),
    e.toJSON ? JSON.stringify(e.toJSON()) : "",
    inspect(e, { depth: 10, showHidden: false }),
  ].join("\n");
}

/** Asserts that none of the secrets occurs in the text (reporting which, never the text). */
export function _assertNoSecrets(text: string, secrets: readonly string[]): void {
  const leaked = secrets.filter((s) => s.length > 0 && text.includes(s)).map((s) => `${s.length}-char secret #${secrets.indexOf(s)}`);
  assert.deepEqual(leaked, [], "secrets leaked");
}

/** Each secret as it is and in lower case (a hex dump or a case-folding encoder must not show it either). */
export function _withLowerCase(secrets: readonly string[]): string[] {
  return [...new Set(secrets.flatMap((s) => [s, s.toLowerCase()]))];
}

/** Whether the service at `baseUrl` still honours a refresh token (a refresh grant with it answers 200). */
export async function _refreshTokenAlive(baseUrl: string, refreshToken: string): Promise<boolean> {
  const res = await fetch(`${baseUrl}/oapi/v1/oauth_token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshToken }).toString(),
  });
  await res.arrayBuffer();
  return res.status === 200;
}

/** Awaits a promise that must reject, and returns the error. */
export async function _rejects(promise: Promise<unknown>): Promise<Error & { code?: string; field?: string; status?: number }> {
  try {
    await promise;
  } catch (err) {
    return err as Error & { code?: string };
  }
  throw new assert.AssertionError({ message: "expected a rejection" });
}

/** This process's environment without any DNS_ACCOUNT_* variable, plus `extra`: children start clean. */
export function _cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("DNS_ACCOUNT_"))), ...extra };
}

/** Resolves the first match of `pattern` (group 1) in a child's stdout; rejects if it exits first. */
export function _waitForLine(child: ChildProcess, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const m = pattern.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once("exit", (code) => reject(new Error(`exited (${code}) before printing ${pattern}`)));
  });
}

/**
 * Skips the running test or hook, saying why in the run's output (a skip without a reason hides what
 * was not tested).
 *
 * @example
 * ```ts
 * it("reads a FIFO", function () { if (process.platform === "win32") _skipBecause(this, "no FIFOs"); });
 * ```
 */
export function _skipBecause(ctx: Mocha.Context, reason: string): never {
  console.log(`      skipped: ${reason}`);
  ctx.skip();
}

/**
 * The id of the account's first DNS server (the emulator makes a default one), read with an API key.
 *
 * @example
 * ```ts
 * serverId = await _firstServerId(emu.url, key);
 * ```
 */
export async function _firstServerId(baseUrl: string, apiKey: string): Promise<string> {
  const client = createClient({ baseUrl, apiKey });
  try {
    return (await client.dnsServers.list())[0]!.id;
  } finally {
    await client.close();
  }
}
