// What a session starts from. Values a caller builds (the provider from its credential sources), not
// options a layer reads: the resolve step checks them (resolveCredentialsConfig), together with the
// base URL they may travel to.
import type { TokenSet } from "../auth/token-response";

/** Log in with username and password (and the current MFA code, used once). */
export interface PasswordCredentials {
  username: string;
  password: string;
  mfaToken?: string;
}

/** Start from a stored refresh token. */
export interface RefreshCredentials {
  refreshToken: string;
}

/** What a `Session` starts from: a password, a refresh token, or a token set to resume. */
export type SessionCredentials = PasswordCredentials | RefreshCredentials | TokenSet;
