/**
 * An emulator of the Account API (1.15) on loopback, for tests, the demo and offline dry runs of pipelines.
 *
 * @example
 * ```ts
 * import { startEmulator } from "pulumi-dns-account/emulator";
 * const emu = await startEmulator({ tokenLifetimeSeconds: 60 });
 * console.log(emu.url);
 * ```
 * @packageDocumentation
 */
export {
  DEFAULT_API_KEYS,
  DEFAULT_CLIENTS,
  DEFAULT_TOKEN_LIFETIME_SECONDS,
  DEFAULT_USERS,
  type Emulator,
  type EmulatorApiKey,
  type EmulatorClient,
  type EmulatorLimits,
  type EmulatorOptions,
  type EmulatorStats,
  type EmulatorUser,
  type Fault,
  type RecordedRequest,
  type RevokeReads,
  startEmulator,
} from "./server";
export { openApiDocument } from "./openapi/document";
export { type AccountSeed, type AccountSeedInput, parseSeed, SEED_VERSION } from "./seed/schema";
export { accountSeedOf } from "./seed/export";
