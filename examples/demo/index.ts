/**
 * `npm run demo`: the token lifecycle against a local emulator, each step printed with secrets masked.
 */
import { request } from "undici";
import { startEmulator } from "../../emulator";
import { issueToken, redact, refreshToken, revokeToken, InvalidGrantError } from "../../sdk";

const USER = { username: "user@example.com", password: "emulator-password" };

function step(n: number, text: string): void {
  console.log(`${n}. ${text}`);
}

async function main(): Promise<void> {
  const emu = await startEmulator();
  try {
    step(1, `Emulator listening on ${emu.url}`);
    const issued = await issueToken({ baseUrl: emu.url, ...USER });
    step(2, `Issued tokens for ${USER.username}: access ${redact(issued.accessToken)}, refresh ${redact(issued.refreshToken)}, expires in ${issued.expiresIn} s (${new Date(issued.expiresAt).toISOString()})`);

    const refreshed = await refreshToken({ baseUrl: emu.url, refreshToken: issued.refreshToken });
    step(3, `Refreshed: new access ${redact(refreshed.accessToken)} (${refreshed.accessToken === issued.accessToken ? "same" : "different"}), refresh token ${refreshed.rotated ? "rotated" : "unchanged"}, expires in ${refreshed.expiresIn} s`);

    const res = await request(`${emu.url}/oapi/v1/account/limits`, { headers: { authorization: `Bearer ${refreshed.accessToken}` } });
    const limits = (await res.body.json()) as Record<string, { limit: number; used: number }>;
    step(4, `GET /oapi/v1/account/limits -> ${res.statusCode}: ${Object.entries(limits).map(([k, v]) => `${k} ${v.used}/${v.limit}`).join(", ")}`);

    await revokeToken({ baseUrl: emu.url, refreshToken: issued.refreshToken });
    step(5, "Revoked the refresh token");
    try {
      await refreshToken({ baseUrl: emu.url, refreshToken: issued.refreshToken });
      throw new Error("the revoked refresh token still worked");
    } catch (err) {
      if (!(err instanceof InvalidGrantError)) throw err;
      step(6, `Refreshing again fails as expected: ${err.code}: ${err.message}`);
    }
  } finally {
    await emu.close();
  }
  console.log("Demo finished.");
}

main().catch((err: unknown) => {
  console.error(`demo failed: ${err instanceof Error ? `${(err as { code?: string }).code ?? err.name}: ${err.message}` : String(err)}`);
  process.exit(1);
});
