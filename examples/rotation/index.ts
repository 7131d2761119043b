import * as pulumi from "@pulumi/pulumi";
import { Token } from "pulumi-dns-account";

const config = new pulumi.Config();

// Changing `rotation` (pulumi config set rotation 2) replaces the token: the new one is created before
// the old refresh token is revoked. The token is also replaced once it is 30 days old, and its access
// token is renewed by `pulumi up` within 12 hours of expiry. Rotation needs a password login
// (dns-account:username and dns-account:password): a Token that adopts a refresh token cannot rotate.
// For an account with two-factor authentication every replacement needs a fresh single-use code:
// `pulumi config set --secret dns-account:mfaToken <code>` before the `pulumi up` that rotates.
const token = new Token("rotating", {
  keepers: { rotation: config.get("rotation") ?? "1" },
  rotationPeriodSeconds: 30 * 86_400,
  renewBeforeSeconds: 12 * 3_600,
});

export const accessToken = token.accessToken;
export const issuedAt = token.issuedAt;
export const expiresAt = token.expiresAt;
