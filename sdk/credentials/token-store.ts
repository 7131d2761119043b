import { mkdir, readFile, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Schema } from "../schema";
import { InvalidGrantError, NoCredentialsError, StoreError } from "../errors";
import { refreshToken } from "../auth/grants";
import { lazy, zod } from "../lazy";
import { type RetryOptions, retryPolicy, withRetries } from "../http/retry";
import { refreshWindowMs } from "../session";
import type { TokenSet } from "../auth/token-response";
import { type Clock, DEFAULT_BASE_URL, systemClock } from "../http/transport";
import type { Dispatcher } from "undici";

// The file libraries are loaded on first use: most SDK users never touch the store.
const lockfile = lazy(() => require("proper-lockfile") as typeof import("proper-lockfile"));
const writeFileAtomic = lazy(() => require("write-file-atomic") as typeof import("write-file-atomic"));

/**
 * A named profile: base URL, username and tokens (`expiresAt` in epoch ms, `expiresIn` in seconds).
 * Never a password, never an MFA code. A browser (implicit-grant) login leaves no refresh token.
 */
export interface Profile {
  baseUrl: string;
  username?: string | undefined;
  refreshToken?: string | undefined;
  accessToken?: string | undefined;
  expiresAt?: number | undefined;
  expiresIn?: number | undefined;
  updatedAt?: string | undefined;
}

const profileZod = lazy(() => {
  const { z } = zod();
  return z.strictObject({
  baseUrl: z.string().min(1),
  username: z.string().min(1).optional(),
  refreshToken: z.string().min(1).optional(),
  accessToken: z.string().min(1).optional(),
  expiresAt: z.number().int().optional(),
  expiresIn: z.number().int().positive().optional(),
  updatedAt: z.string().optional(),
});
});

/** The whole store file. */
export interface StoreData {
  version: 1;
  profiles: Record<string, Profile>;
}

const storeSchema: () => Schema<StoreData> = lazy(() => {
  const { z } = zod();
  return z.object({ version: z.literal(1), profiles: z.record(z.string().min(1), profileZod()) });
});

/** File name of the store inside its folder. */
export const STORE_FILE = "credentials.json";

/**
 * The store's folder: `DNS_ACCOUNT_CONFIG_DIR`, else `$XDG_CONFIG_HOME/dns-account`, else the platform's
 * config folder (`~/.config`, `~/Library/Application Support`, `%APPDATA%`).
 */
export function defaultStoreDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, home = os.homedir()): string {
  if (env.DNS_ACCOUNT_CONFIG_DIR) return env.DNS_ACCOUNT_CONFIG_DIR;
  if (env.XDG_CONFIG_HOME) return path.join(env.XDG_CONFIG_HOME, "dns-account");
  if (platform === "win32") return path.join(env.APPDATA ?? path.join(home, "AppData", "Roaming"), "dns-account");
  if (platform === "darwin") return path.join(home, "Library", "Application Support", "dns-account");
  return path.join(home, ".config", "dns-account");
}

/** Options of {@link TokenStore}. */
export interface TokenStoreOptions {
  /** Folder of the store; default {@link defaultStoreDir}. */
  dir?: string;
  clock?: Clock;
  dispatcher?: Dispatcher;
  retry?: RetryOptions;
  /** How long to wait for another process's lock, in ms; default 30 000. */
  lockWaitMs?: number;
  /** Allow refreshing over `http://` to a non-loopback host (e.g. an emulator in docker-compose). */
  allowInsecureHttp?: boolean;
}

/**
 * A per-user file of named profiles (mode 0600, written atomically with write-file-atomic, guarded by a
 * cross-process lock from proper-lockfile). {@link TokenStore.accessToken} re-reads the file after taking
 * the lock, so many processes that find an expired token at once cause one token call.
 *
 * @example
 * ```ts
 * const store = new TokenStore();
 * const { accessToken } = await store.accessToken("default");
 * ```
 */
export class TokenStore {
  /** Absolute path of the store file. */
  readonly file: string;
  readonly #dir: string;
  readonly #clock: Clock;
  readonly #options: TokenStoreOptions;

  constructor(options: TokenStoreOptions = {}) {
    this.#dir = path.resolve(options.dir ?? defaultStoreDir());
    this.file = path.join(this.#dir, STORE_FILE);
    this.#clock = options.clock ?? systemClock;
    this.#options = options;
  }

  /** Reads and validates the store; an absent file is an empty store. */
  async read(): Promise<StoreData> {
    let info;
    try {
      info = await stat(this.file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return { version: 1, profiles: {} };
      throw err;
    }
    if (typeof process.getuid === "function" && info.uid !== process.getuid()) {
      throw new StoreError("store_foreign_owner", `The credential store ${this.file} belongs to another user; refusing to use it`);
    }
    if (process.platform !== "win32" && (info.mode & 0o077) !== 0) {
      const mode = (info.mode & 0o777).toString(8).padStart(4, "0");
      throw new StoreError("store_permissions", `The credential store ${this.file} is open to other users (mode ${mode}); run: chmod 600 ${this.file}`);
    }
    let data: unknown;
    try {
      data = JSON.parse(await readFile(this.file, "utf8"));
    } catch {
      throw new StoreError("store_corrupt", `The credential store ${this.file} is not valid JSON; fix or remove it (it is never overwritten automatically)`);
    }
    const parsed = storeSchema().safeParse(data);
    if (!parsed.success) {
      const where = parsed.error.issues[0]?.path.map(String).join(".") || "(root)";
      throw new StoreError("store_corrupt", `The credential store ${this.file} has an unexpected shape at "${where}"; fix or remove it`, { field: where });
    }
    return parsed.data;
  }

  /** One profile, or undefined. */
  async profile(name: string): Promise<Profile | undefined> {
    return (await this.read()).profiles[name];
  }

  /** Profile names. */
  async profiles(): Promise<string[]> {
    return Object.keys((await this.read()).profiles).sort();
  }

  /** Runs `fn` holding the store's cross-process lock. */
  async withLock<T>(fn: () => Promise<T>): Promise<T> {
    await mkdir(this.#dir, { recursive: true, mode: 0o700 });
    const wait = this.#options.lockWaitMs ?? 30_000;
    let release: () => Promise<void>;
    try {
      release = await lockfile().lock(this.file, {
        realpath: false,
        stale: 10_000,
        retries: { retries: Math.ceil(wait / 50), factor: 1, minTimeout: 25, maxTimeout: 50, randomize: true },
      });
    } catch {
      throw new StoreError("store_locked", `The credential store ${this.file} stayed locked by another process`);
    }
    try {
      return await fn();
    } finally {
      await release().catch(() => undefined);
    }
  }

  /** Replaces (or, with `undefined`, removes) a profile, under the lock, re-reading the file first. */
  async put(name: string, profile: Profile | undefined): Promise<void> {
    await this.withLock(async () => {
      const data = await this.read();
      if (profile === undefined) delete data.profiles[name];
      else data.profiles[name] = { ...profile, updatedAt: new Date(this.#clock.now()).toISOString() };
      await this.#write(data);
    });
  }

  async #write(data: StoreData): Promise<void> {
    await mkdir(this.#dir, { recursive: true, mode: 0o700 });
    await writeFileAtomic()(this.file, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
  }

  #fresh(p: Profile | undefined): p is Profile & { accessToken: string; expiresAt: number } {
    if (!p?.accessToken || p.expiresAt === undefined) return false;
    return this.#clock.now() < p.expiresAt - refreshWindowMs(p.expiresIn ?? 3600);
  }

  /**
   * A valid access token for a profile, refreshing and persisting it when needed. After taking the lock
   * the store is read again: if another process refreshed meanwhile, its token is used.
   */
  async accessToken(name: string): Promise<TokenSet & { baseUrl: string }> {
    const view = (p: Profile & { accessToken: string; expiresAt: number }) => ({
      accessToken: p.accessToken,
      ...(p.refreshToken ? { refreshToken: p.refreshToken } : {}),
      tokenType: "bearer" as const,
      expiresIn: p.expiresIn ?? Math.max(1, Math.round((p.expiresAt - this.#clock.now()) / 1000)),
      expiresAt: p.expiresAt,
      baseUrl: p.baseUrl,
    });
    const first = await this.profile(name);
    if (!first) throw new NoCredentialsError(`No profile "${name}" in ${this.file}: run dns-account login --profile ${name}`);
    if (this.#fresh(first)) return view(first);
    return this.withLock(async () => {
      const data = await this.read();
      const p = data.profiles[name];
      if (!p) throw new NoCredentialsError(`No profile "${name}" in ${this.file}: run dns-account login --profile ${name}`);
      if (this.#fresh(p)) return view(p);
      if (!p.refreshToken) {
        throw new InvalidGrantError(`The access token of profile "${name}" has expired and the profile has no refresh token: log in again`);
      }
      const set = await withRetries(retryPolicy(this.#options.retry), () =>
        refreshToken({
          baseUrl: p.baseUrl ?? DEFAULT_BASE_URL,
          refreshToken: p.refreshToken!,
          clock: this.#clock,
          ...(this.#options.allowInsecureHttp ? { allowInsecureHttp: true } : {}),
          ...(this.#options.dispatcher ? { dispatcher: this.#options.dispatcher } : {}),
        }),
      );
      const next = {
        ...p,
        refreshToken: set.refreshToken,
        accessToken: set.accessToken,
        expiresAt: set.expiresAt,
        expiresIn: set.expiresIn,
        updatedAt: new Date(this.#clock.now()).toISOString(),
      };
      data.profiles[name] = next;
      await this.#write(data);
      return view(next);
    });
  }
}
