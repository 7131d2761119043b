import type { IncomingMessage } from "node:http";
import { Account, type EmulatorLimits } from "./account/account";
import type { EmulatorApiKey, EmulatorUser, TokenStore } from "./auth/tokens";
import type { Fault } from "./http/faults";

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
  /** Interface to listen on; default `127.0.0.1`. */
  host?: string;
  /** Port; default 0 (a free one). */
  port?: number;
  users?: readonly EmulatorUser[];
  clients?: readonly EmulatorClient[];
  /** API keys (`Authorization: ApiKey <key>`); default {@link DEFAULT_API_KEYS}. */
  apiKeys?: readonly EmulatorApiKey[];
  /** Access-token lifetime in seconds, fixed or drawn per response. Default: 55 to 65 minutes, varying. */
  tokenLifetimeSeconds?: number | (() => number);
  /**
   * `grant_type` rules of the token endpoint. Default (unset or `false`): as the service behaves, the
   * password and refresh grants are inferred from their fields when `grant_type` is absent, and the
   * authorization-code grant without it is refused (400 naming `grant_type`). `true`: the schema's rule
   * for every grant, `grant_type` required.
   */
  requireGrantType?: boolean;
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
  /** Per-account quotas. */
  limits?: Partial<EmulatorLimits>;
  /** Time source for token expiry, codes and the query log; default `Date.now`. */
  now?: () => number;
  /** Called with one line per request: method, path (never the query) and status. */
  log?: (line: string) => void;
  /** Randomness for faults with a `probability` (seed it for repeatable tests); default Math.random. */
  random?: () => number;
  /** Seed of the synthetic traffic behind the query log and stats (same seed, same traffic); default 1. */
  trafficSeed?: number;
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
  record(req: IncomingMessage, url: URL, form: Record<string, string>): void;
  /** Browser sessions of the login page: session id → username. */
  sessions: Map<string, string>;
  /** Key that signs pagination cursors (opaque and tamper-evident). */
  cursorKey: Buffer;
  trafficSeed: number;
}

/** Creates an account on first use. */
export function accountsOf(limits: EmulatorLimits): (username: string) => Account {
  const accounts = new Map<string, Account>();
  return (username) => {
    let a = accounts.get(username);
    if (!a) accounts.set(username, (a = new Account(limits)));
    return a;
  };
}

export type { Fault };
