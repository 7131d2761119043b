import type { IncomingMessage } from "node:http";
import { Account, type EmulatorLimits } from "./account/account";
import type { EmulatorApiKey, EmulatorUser, TokenStore } from "./auth/tokens";
import type { Fault } from "./http/faults";
import type { AccountSeedInput } from "./seed/schema";
import type { Query } from "./stats/traffic";

/** An OAuth client approved for the implicit grant and the code flow. */
export interface EmulatorClient {
  clientId: string;
  /**
   * Registered redirect URIs. A loopback URI (127.0.0.1, [::1], localhost) matches any port, as native
   * apps need (RFC 8252 §7.3).
   */
  redirectUris: string[];
}

/** Which form of the revoke request the emulator reads (to prove a client satisfies each). */
export type RevokeReads = "any" | "query" | "token" | "refresh_token";

/** Options of `startEmulator`. */
export interface EmulatorOptions {
  /**
   * Interface to listen on; default `127.0.0.1`. Anything but a loopback address (127.0.0.0/8, `::1`,
   * `localhost`) is refused with a `ConfigError` naming `host` unless `allowRemote` is set: the
   * emulator's users, password and API keys are published.
   */
  host?: string;
  /**
   * Listen on a `host` that is not loopback (`0.0.0.0`, a LAN address): whoever reaches it can use the
   * published credentials. The `Host` rule still holds (see `allowedHosts`).
   */
  allowRemote?: boolean;
  /**
   * `Host` names answered besides the listening address, each `name` or `name:port` (default port: the
   * emulator's), e.g. `["emulator"]` for `http://emulator:8787` in docker-compose, or `localhost:9000`
   * behind a port mapping. Every other `Host` (a page of another site after DNS rebinding) gets 421
   * Misdirected Request, on every route; a request without a `Host` gets 400. Always answered:
   * 127.0.0.1, localhost and [::1] with the emulator's port, the address it is bound to and `host` as
   * given, and on a wildcard address (`0.0.0.0`, `::`) each of the machine's interface addresses.
   * List only names you control: a name someone else can point at 127.0.0.1 reopens the hole.
   */
  allowedHosts?: readonly string[];
  /** Port; default 0 (a free one). */
  port?: number;
  users?: readonly EmulatorUser[];
  clients?: readonly EmulatorClient[];
  /** API keys (`Authorization: ApiKey <key>`); default {@link DEFAULT_API_KEYS}. */
  apiKeys?: readonly EmulatorApiKey[];
  /**
   * Access-token lifetime in seconds, fixed or drawn per response. Default: about 30 days (2,592,000 to
   * 2,635,200 s, varying), as the service's password and refresh grants issue them.
   */
  tokenLifetimeSeconds?: number | (() => number);
  /**
   * `grant_type` rules of the token endpoint. Default (unset or `false`): as the service behaves, the
   * password and refresh grants are inferred from their fields when `grant_type` is absent, and the
   * authorization-code grant without it is refused (400 naming `grant_type`). `true`: the schema's rule
   * for every grant, `grant_type` required.
   */
  requireGrantType?: boolean;
  /**
   * Status of a token request whose body is not `application/x-www-form-urlencoded` (JSON, say).
   * Default 415 Unsupported Media Type, as the service answers; 400 is the emulator's answer before 0.3.
   */
  tokenMediaTypeStatus?: 400 | 415;
  /** Which revoke form is honoured; default `any`. */
  revokeReads?: RevokeReads;
  /**
   * Answer 200 to a revoke request that carries no token in the form it reads (a server that reads only
   * the query and says nothing about a body it ignored); default false: 400 naming `refresh_token`.
   */
  revokeMissingOk?: boolean;
  /** Return a new refresh token on each refresh grant (the real service does not). */
  rotateRefreshTokens?: boolean;
  /** Offset of the emulator's `Date` header from its clock, in ms (a server whose clock is off). */
  dateOffsetMs?: number;
  /** Per-account quotas of accounts made on first use; a seed's or state file's own `limits` win over them. */
  limits?: Partial<EmulatorLimits>;
  /**
   * Quotas that win over everything else, a seed's and the state file's `limits` included (the CLI's
   * `--limit`): keys of `GET /account/limits`, whole numbers from 0 to 2147483647. They apply while
   * this emulator runs and are not written to `stateFile`. A bad name or number is a `ConfigError`.
   */
  limitOverrides?: Partial<EmulatorLimits>;
  /** Time source for token expiry, codes and the query log; default `Date.now`. */
  now?: () => number;
  /** Called with one line per request: method, path (never the query) and status. */
  log?: (line: string) => void;
  /**
   * Called with a problem no request is answered with: a change that could not be written to
   * `stateFile` (so it will not survive a restart). Default: `log`.
   */
  warn?: (message: string) => void;
  /** Randomness for faults with a `probability` (seed it for repeatable tests); default Math.random. */
  random?: () => number;
  /**
   * Query-log items carry `dns_proto_type` (every item) and `response_country` (items that were
   * answered), as the service's do; default true. `false` omits both, as a server that never sends them.
   */
  queryLogProtocolFields?: boolean;
  /** Seed of the synthetic traffic behind the query log and stats (same seed, same traffic); default 1. */
  trafficSeed?: number;
  /**
   * The account of one user at start (`dns-account export --format seed` writes one): DNS servers with
   * their settings and rules, devices, dedicated IPv4 addresses, query-log entries. Validated at start;
   * a problem is a `ConfigError` naming the field path. Ignored when `stateFile` already exists.
   */
  seed?: AccountSeedInput;
  /**
   * A file that keeps every account across restarts: read at start when it exists (it wins over
   * `seed`), rewritten after each change (a temporary file renamed over it, mode 0600; a symbolic
   * link is refused, never followed). Tokens are not kept: log in again after a restart (API keys work).
   */
  stateFile?: string;
  /** How errors name these options (the CLI passes its flags); default the option names. */
  optionNames?: { seed?: string; stateFile?: string; host?: string; allowRemote?: string; allowedHosts?: string; limitOverrides?: string };
  /**
   * DNS server listings (`GET /dns_servers`, `/oapi/v2/dns_servers`) carry each server's user rules.
   * Default false, as the service behaves: listed servers come with empty `rules` (their `rules_count`
   * kept); only reading one server (or its settings) gives them.
   */
  listingRules?: boolean;
}

/** Counters of what the emulator served. */
export interface EmulatorStats {
  requests: number;
  tokenCalls: number;
  passwordGrants: number;
  refreshGrants: number;
  /** `grant_type=authorization_code` exchanges (successful or not). */
  codeGrants: number;
  revokeCalls: number;
  authorizeCalls: number;
  apiCalls: number;
  /** API calls authenticated with an API key. */
  apiKeyCalls: number;
  /** TCP connections accepted (keep-alive reuse keeps this low). */
  connections: number;
}

/** A request the emulator received, as parsed (for tests asserting what a client sent). */
export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  form: Record<string, string>;
  headers: IncomingMessage["headers"];
}

/** Users every emulator has unless `users` is given. The MFA user accepts any 6-digit code, once. */
export const DEFAULT_USERS: readonly EmulatorUser[] = [
  { username: "user@example.com", password: "emulator-password" },
  { username: "mfa@example.com", password: "emulator-password", mfa: true },
];

/** The client every emulator has unless `clients` is given. */
export const DEFAULT_CLIENTS: readonly EmulatorClient[] = [{ clientId: "dns-account-cli", redirectUris: ["http://127.0.0.1/callback"] }];

/** API keys every emulator has unless `apiKeys` is given: one per default user. */
export const DEFAULT_API_KEYS: readonly EmulatorApiKey[] = [
  { key: "emulator-api-key-user", username: "user@example.com" },
  { key: "emulator-api-key-mfa", username: "mfa@example.com" },
];

/** What every route module shares: options, the token store, accounts, counters. */
export interface EmulatorState {
  options: EmulatorOptions;
  store: TokenStore;
  clients: readonly EmulatorClient[];
  stats: EmulatorStats;
  now(): number;
  lifetimeSeconds(): number;
  account(username: string): Account;
  /** Every account, with what a seed added to each. */
  accounts: Accounts;
  record(req: IncomingMessage, url: URL, form: Record<string, string>): void;
  /** Browser sessions of the login page: session id → username. */
  sessions: Map<string, string>;
  /** Key that signs pagination cursors (opaque and tamper-evident). */
  cursorKey: Buffer;
  trafficSeed: number;
}

/** What a seed adds to an account beyond the account model: its own query-log entries and quotas. */
export interface AccountExtras {
  /** Query-log entries from the seed (or the state file), newest first. */
  queries: Query[];
  /** Synthetic traffic besides `queries`; default true. */
  syntheticTraffic: boolean;
  /** Quotas the seed raised or `limitOverrides` set (kept in the state file). */
  limits?: Partial<EmulatorLimits>;
}

/**
 * The emulator's accounts by username: created on first use with the emulator's quotas, or set from a
 * seed or the state file.
 *
 * @example
 * ```ts
 * const accounts = new Accounts(DEFAULT_LIMITS);
 * accounts.get("user@example.com").devices.size; // 0
 * ```
 */
export class Accounts {
  private readonly byUser = new Map<string, Account>();
  private readonly extrasOf = new WeakMap<Account, AccountExtras>();

  /**
   * @param limits quotas of accounts made on first use
   * @param kept quotas such an account keeps in the state file (the overrides, `--limit`), so that it
   *   loads again without them
   */
  constructor(
    readonly limits: EmulatorLimits,
    private readonly kept: Partial<EmulatorLimits> = {},
  ) {}

  /** The user's account, created on first use. */
  get(username: string): Account {
    let a = this.byUser.get(username);
    if (!a) {
      this.byUser.set(username, (a = new Account(this.limits)));
      if (Object.keys(this.kept).length > 0) this.extrasOf.set(a, { queries: [], syntheticTraffic: true, limits: { ...this.kept } });
    }
    return a;
  }

  /** Sets a user's account (from a seed or the state file). */
  set(username: string, account: Account, extras: AccountExtras): void {
    this.byUser.set(username, account);
    this.extrasOf.set(account, extras);
  }

  /** What a seed added to an account; undefined for an account made on first use. */
  extras(account: Account): AccountExtras | undefined {
    return this.extrasOf.get(account);
  }

  /** Every account, oldest first. */
  entries(): [string, Account][] {
    return [...this.byUser];
  }
}

export type { Fault };
