import { randomBytes } from "node:crypto";
import { constants as fsc } from "node:fs";
import { mkdir, open, rename, stat, unlink } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Validator } from "../schema";
import { ConfigError, InvalidGrantError, NoCredentialsError, StoreError } from "../errors";
import { refreshToken } from "../auth/grants";
import { lazy, zod } from "../lazy";
import { withRetries } from "../http/retry";
import type { RetryOptions } from "../config/input";
import { resolveRetryConfig } from "../config/resolve";
import type { RetryPolicy } from "../config/resolved";
import { refreshWindowMs } from "../session";
import type { TokenSet } from "../auth/token-response";
import { type Clock, DEFAULT_BASE_URL, systemClock } from "../http/transport";
import type { Dispatcher } from "undici";
import { isTime } from "../time";

// Loaded on first use: most SDK users never touch the store.
const lockfile = lazy(() => require("proper-lockfile") as typeof import("proper-lockfile"));

/**
 * A named profile: base URL, username and tokens (`expiresAt` in epoch ms, `expiresIn` in seconds), or an
 * API key. Never a password, never an MFA code. A browser (implicit-grant) login leaves no refresh token.
 * Fields this version does not know are kept as they are.
 */
export interface Profile {
  baseUrl: string;
  username?: string | undefined;
  refreshToken?: string | undefined;
  accessToken?: string | undefined;
  /** An API key (`dns-account login --api-key-stdin`): used as it is, never refreshed. */
  apiKey?: string | undefined;
  /** The refresh token was adopted (`DNS_ACCOUNT_REFRESH_TOKEN`), not minted by a login: logout forgets it, never revokes it. */
  adopted?: boolean | undefined;
  expiresAt?: number | undefined;
  expiresIn?: number | undefined;
  updatedAt?: string | undefined;
  [field: string]: unknown;
}

// Loose: fields written by a newer version are kept (and written back), never fatal.
const profileSchema: () => Validator<Profile> = lazy(() => {
  const { z } = zod();
  return z.looseObject({
    baseUrl: z.string().min(1),
    username: z.string().min(1).optional(),
    refreshToken: z.string().min(1).optional(),
    accessToken: z.string().min(1).optional(),
    /** An API key (`dns-account login --api-key-stdin`): used as it is, never refreshed. */
    apiKey: z.string().min(1).optional(),
    expiresAt: z.number().optional(),
    expiresIn: z.number().int().positive().optional(),
    updatedAt: z.string().optional(),
  });
});

/**
 * The whole store file. `profiles` has no prototype, so any name (`__proto__`, `constructor`) is just a
 * name; unknown top-level fields are kept.
 */
export interface StoreData {
  version: 1;
  profiles: Record<string, Profile>;
  [field: string]: unknown;
}

function emptyStore(): StoreData {
  return { version: 1, profiles: Object.create(null) as Record<string, Profile> };
}

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
 * A per-user file of named profiles (mode 0600 in a folder no one else can write, written atomically
 * without following links, guarded by a cross-process lock from proper-lockfile).
 * {@link TokenStore.accessToken} re-reads the file after taking the lock, so many processes that find an
 * expired token at once cause one token call.
 *
 * Like ssh's StrictModes, the store refuses a folder that another user owns or that others can write
 * (and a folder above it that anyone can write without the sticky bit): there, another user could plant
 * a link at the name being written and read or overwrite the victim's files.
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
  /** The options, resolved once here (issue 26 §2); nothing below reads the caller's object again. */
  readonly #config: Readonly<{
    lockWaitMs: number;
    /** Checked on first use, once: a bad retry option still fails the first refresh, as it always did. */
    retry: () => RetryPolicy;
    refresh: Readonly<{ allowInsecureHttp?: true; dispatcher?: Dispatcher }>;
  }>;

  constructor(options: TokenStoreOptions = {}) {
    this.#dir = path.resolve(options.dir ?? defaultStoreDir());
    this.file = path.join(this.#dir, STORE_FILE);
    this.#clock = options.clock ?? systemClock;
    const retry = options.retry ? { ...options.retry } : undefined; // read here, checked on first use
    this.#config = Object.freeze({
      lockWaitMs: options.lockWaitMs ?? 30_000,
      retry: lazy(() => resolveRetryConfig(retry)),
      refresh: Object.freeze({
        ...(options.allowInsecureHttp ? { allowInsecureHttp: true as const } : {}),
        ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
      }),
    });
  }

  /** Reads and validates the store; an absent file is an empty store. */
  async read(): Promise<StoreData> {
    try {
      await stat(this.#dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return emptyStore();
      throw err;
    }
    await this.#checkFolder();
    let handle;
    try {
      // O_NOFOLLOW: a link planted at the store's name is refused, never read through.
      handle = await open(this.file, fsc.O_RDONLY | (fsc.O_NOFOLLOW ?? 0));
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "ENOENT") return emptyStore();
      if (code === "ELOOP" || code === "EMLINK") {
        throw new StoreError("store_permissions", `The credential store ${this.file} is a symbolic link; refusing to follow it. Remove the link`);
      }
      throw err;
    }
    let text: string;
    try {
      const info = await handle.stat();
      if (!info.isFile()) throw new StoreError("store_corrupt", `The credential store ${this.file} is not a regular file; remove it`);
      if (typeof process.getuid === "function" && info.uid !== process.getuid()) {
        throw new StoreError("store_foreign_owner", `The credential store ${this.file} belongs to another user; refusing to use it`);
      }
      if (process.platform !== "win32" && (info.mode & 0o077) !== 0) {
        const mode = (info.mode & 0o777).toString(8).padStart(4, "0");
        throw new StoreError("store_permissions", `The credential store ${this.file} is open to other users (mode ${mode}); run: chmod 600 ${this.file}`);
      }
      text = await handle.readFile("utf8");
    } finally {
      await handle.close();
    }
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      throw new StoreError("store_corrupt", `The credential store ${this.file} is not valid JSON; fix or remove it (it is never overwritten automatically)`);
    }
    return this.#validate(data);
  }

  #validate(data: unknown): StoreData {
    const corrupt = (where: string): StoreError =>
      new StoreError("store_corrupt", `The credential store ${this.file} has an unexpected shape at "${where}"; fix or remove it`, { field: where });
    if (typeof data !== "object" || data === null || Array.isArray(data)) throw corrupt("(root)");
    const raw = data as Record<string, unknown>;
    if (raw.version !== 1) throw corrupt("version");
    const profiles = raw.profiles;
    if (typeof profiles !== "object" || profiles === null || Array.isArray(profiles)) throw corrupt("profiles");
    // JSON.parse makes "__proto__" an own key; a prototype-less object keeps it one.
    const out: Record<string, Profile> = Object.create(null) as Record<string, Profile>;
    for (const [name, value] of Object.entries(profiles)) {
      if (name === "") throw corrupt("profiles");
      const parsed = profileSchema().safeParse(value);
      if (!parsed.success) throw corrupt(`profiles.${name}.${parsed.error.issues[0]?.path.map(String).join(".") ?? ""}`.replace(/\.$/, ""));
      const profile = parsed.data;
      // A time outside the Date range (a corrupt or hostile file) reads as unknown: the token is
      // refreshed, and the profile stays usable and revocable.
      if (profile.expiresAt !== undefined && !isTime(profile.expiresAt)) delete profile.expiresAt;
      out[name] = profile;
    }
    return { ...raw, version: 1, profiles: out };
  }

  /** One profile, or undefined. Any string is a name, `__proto__` and `constructor` included. */
  async profile(name: string): Promise<Profile | undefined> {
    const { profiles } = await this.read();
    return Object.hasOwn(profiles, name) ? profiles[name] : undefined;
  }

  /** Profile names. */
  async profiles(): Promise<string[]> {
    return Object.keys((await this.read()).profiles).sort();
  }

  /** Runs `fn` holding the store's cross-process lock. */
  async withLock<T>(fn: () => Promise<T>): Promise<T> {
    await mkdir(this.#dir, { recursive: true, mode: 0o700 });
    // Checked before the lock: the lock itself is written in the folder.
    await this.#checkFolder();
    const wait = this.#config.lockWaitMs;
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
    if (typeof name !== "string" || name === "") throw new ConfigError('"profile" must be a non-empty string', { field: "profile" });
    await this.withLock(async () => {
      const data = await this.read();
      if (profile === undefined) delete data.profiles[name];
      else data.profiles[name] = { ...profile, updatedAt: new Date(this.#clock.now()).toISOString() };
      await this.#write(data);
    });
  }

  /**
   * Refuses a folder that another user owns or others can write, or one below a folder that anyone can
   * write without the sticky bit (someone could swap it). Not on Windows, which has no such modes.
   */
  async #checkFolder(): Promise<void> {
    if (typeof process.getuid !== "function" || process.platform === "win32") return;
    const uid = process.getuid();
    const info = await stat(this.#dir);
    if (info.uid !== uid) {
      throw new StoreError(
        "store_foreign_owner",
        `The credential store's folder ${this.#dir} belongs to another user; refusing to use it. Set DNS_ACCOUNT_CONFIG_DIR to a folder of your own`,
      );
    }
    if ((info.mode & 0o022) !== 0) {
      const mode = (info.mode & 0o777).toString(8).padStart(4, "0");
      throw new StoreError("store_permissions", `The credential store's folder ${this.#dir} can be written by other users (mode ${mode}); run: chmod 700 ${this.#dir}`);
    }
    for (let dir = path.dirname(this.#dir); ; dir = path.dirname(dir)) {
      const above = await stat(dir);
      if ((above.mode & 0o002) !== 0 && (above.mode & 0o1000) === 0) {
        throw new StoreError(
          "store_permissions",
          `The folder ${dir} above the credential store can be written by anyone and has no sticky bit; run: chmod o-w ${dir}, or set DNS_ACCOUNT_CONFIG_DIR elsewhere`,
        );
      }
      if (dir === path.dirname(dir)) break;
    }
  }

  /**
   * Writes the whole store atomically: a new file with a random name, created exclusively and without
   * following links (O_EXCL | O_NOFOLLOW, mode 0600), synced, then renamed over the store. A crash
   * leaves the old store or the new one, never a mix. (write-file-atomic resolves links in the target's
   * path, which is what a planted link exploits, hence this small writer.)
   */
  async #write(data: StoreData): Promise<void> {
    await mkdir(this.#dir, { recursive: true, mode: 0o700 });
    await this.#checkFolder();
    const temp = path.join(this.#dir, `.${STORE_FILE}.${randomBytes(8).toString("hex")}.tmp`);
    const handle = await open(temp, fsc.O_WRONLY | fsc.O_CREAT | fsc.O_EXCL | (fsc.O_NOFOLLOW ?? 0), 0o600);
    try {
      try {
        await handle.writeFile(`${JSON.stringify(data, null, 2)}\n`, "utf8");
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temp, this.file);
    } catch (err) {
      await unlink(temp).catch(() => undefined);
      throw err;
    }
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
      const set = await withRetries(this.#config.retry(), () =>
        refreshToken({
          baseUrl: p.baseUrl ?? DEFAULT_BASE_URL,
          refreshToken: p.refreshToken!,
          clock: this.#clock,
          ...this.#config.refresh,
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
