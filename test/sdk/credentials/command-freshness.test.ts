import assert from "node:assert/strict";
import { commandSource, issueToken } from "../../../sdk";
import { _useEmulator, USER } from "../../support/helpers";

/**
 * A credential command's access token is used while it is fresh and refreshed (when the command also
 * printed a refresh token) once it is within five minutes of its expiry, the session's window. Its
 * lifetime is unknown (the command prints when it expires, not when it was issued), so the window is
 * the fixed five minutes, not a share of the time it has left (which never ran out before expiry).
 */
describe("a credential command's token: used while fresh, refreshed near its expiry", () => {
  const emu = _useEmulator();
  const NOW = Date.UTC(2026, 10, 25, 12, 0, 0);
  const clock = { now: () => NOW };

  const tokenAt = async (expiresInMs: number) => {
    const issued = await issueToken({ baseUrl: emu().url, ...USER });
    const printed = { accessToken: "printed-access-token", refreshToken: issued.refreshToken, expiresAt: new Date(NOW + expiresInMs).toISOString(), baseUrl: emu().url };
    const source = commandSource({ command: `echo '${JSON.stringify(printed)}'`, env: {}, clock });
    const credential = (await source.load())!;
    const before = emu().stats.refreshGrants;
    const set = await credential.token();
    return { set, refreshed: emu().stats.refreshGrants - before };
  };

  it("an hour before its expiry the printed token is used as it is (no refresh)", async () => {
    const { set, refreshed } = await tokenAt(60 * 60_000);
    assert.equal(set.accessToken, "printed-access-token");
    assert.equal(refreshed, 0);
  });

  it("two minutes before its expiry it is refreshed with the printed refresh token", async () => {
    const { set, refreshed } = await tokenAt(2 * 60_000);
    assert.notEqual(set.accessToken, "printed-access-token");
    assert.equal(refreshed, 1);
  });
});
