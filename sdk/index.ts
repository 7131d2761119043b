/**
 * The Account API SDK: token grants, the implicit-grant helpers and the error family.
 * Loads neither `@pulumi/pulumi` nor anything else heavy.
 *
 * @example
 * ```ts
 * import { issueToken, refreshToken, revokeToken } from "pulumi-dns-account/sdk";
 * const tokens = await issueToken({ username: "me@example.com", password: process.env.PASSWORD! });
 * ```
 * @packageDocumentation
 */
export * from "./errors";
export {
  API_PREFIX,
  type BaseUrlWords,
  type Clock,
  DEFAULT_BASE_URL,
  MAX_BODY_BYTES,
  parseRetryAfter,
  type RawResponse,
  resolveBaseUrl,
  systemClock,
} from "./http/transport";
export type { RetryOptions, TokenCallOptions, TransportOptions } from "./config/input";
export {
  decodeJson,
  parseTokenResponse,
  type ParseTokenOptions,
  type TokenGrant,
  tokenBodySchema,
  type TokenSet,
} from "./auth/token-response";
export {
  DEFAULT_TOKEN_TIMEOUT_MS,
  exchangeCode,
  type ExchangeCodeOptions,
  issueToken,
  type IssuedTokenSet,
  type IssueTokenOptions,
  refreshToken,
  type RefreshedTokenSet,
  type RefreshTokenOptions,
  tokenRequest,
} from "./auth/grants";
export { parseRevokeResponse, revokeRequest, revokeToken, type RevokeTokenOptions } from "./auth/revoke";
export {
  type AuthorizationCode,
  authorizeUrl,
  type AuthorizeResult,
  type AuthorizeUrlOptions,
  CodeAuthorization,
  parseAuthorizeRedirect,
  type ParseAuthorizeOptions,
  parseCodeRedirect,
} from "./auth/authorize";
export { codeChallengeS256, generateCodeVerifier, generateState } from "./auth/pkce";
export { USER_AGENT, VERSION } from "./version";
export { redact } from "./redact";
export { isoTime, isTime, MAX_EXPIRES_IN_SECONDS } from "./time";
export { backoffDelay, isTransient } from "./http/retry";
export {
  MAX_TIMER_MS,
  type PasswordCredentials,
  type RefreshCredentials,
  Session,
  type SessionCredentials,
} from "./session";
export type { SessionOptions } from "./config/input";
export type { ClientOptions } from "./config/client-input";
export { type CallArgs, Client, createClient, parseApiResponse, type QueryParams, type RequestOptions } from "./client/client";
export type {
  AccountApi,
  DedicatedIpv4Api,
  DeviceFilter,
  DevicesApi,
  DnsServerFilter,
  DnsServersApi,
  ListApi,
  MobileConfigOptions,
  QueryLogApi,
  QueryLogParams,
  RankedStatsParams,
  StatsApi,
  StatsParams,
} from "./client/groups";
/** Types of the whole API model (1.15), generated from the reference description: `api.Device`, `api.DNSServerSettings`… */
export type * as api from "./client/model";
export { type Operation, parseOperations } from "./client/operations";
export { LIST_LIMITS } from "./client/groups/shared";
export * from "./client/api-schemas";
export type { ValidationResult, Validator } from "./schema";
export { credentialKey, resetSharedSessions, sharedClient, sharedSession } from "./client/shared-session";
export { type Profile, STORE_FILE, type StoreData, TokenStore, type TokenStoreOptions, defaultStoreDir } from "./credentials/token-store";
export { credentialCommandEnv, type CredentialProcessOptions, type ProcessCredentials, runCredentialProcess } from "./credentials/credential-process";
export {
  commandSource,
  type Credential,
  type CredentialSource,
  defaultCredentialChain,
  environmentSource,
  type ExplicitCredentials,
  optionsSource,
  profileSource,
  resolveCredential,
  type SourceName,
} from "./credentials/credential-sources";
export { refreshWindowMs } from "./session";
