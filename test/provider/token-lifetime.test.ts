import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import sinon from "sinon";
import { type Emulator, startEmulator } from "../../emulator";
import { DEFAULT_TOKEN_LIFETIME_SECONDS } from "../../emulator/server";
import * as token from "../../provider/token/lifecycle";
import type { ProviderContext } from "../../provider/shared/lifecycle";
import type { TokenOutputs } from "../../provider/token/types";

const DAY_MS = 86_400_000;
const URN_ID = "tok-1";
const ctx: ProviderContext = { config: {}, allowInsecureHttp: false, warn: () => undefined };

// The Token renews inside a window of a day or half the lifetime, whichever is smaller: with the
// service's 30-day tokens that is the last day, with an hour the last half hour. Date is faked (the
// lifecycle reads Date.now, the emulator too), so "29 days later" takes no time.
for (const [label, lifetime, windowMs] of [
  ["the service's ~30 days (the emulator's default)", undefined, DAY_MS],
  ["an hour (--token-lifetime 3600)", 3600, 1_800_000],
] as const) {
  describe(`Token resource with access tokens that live ${label}`, () => {
    let emu: Emulator;
    let clock: sinon.SinonFakeTimers;
    let dir: string;
    const savedEnv = { ...process.env };

    before(async () => {
      // No credential of the machine running the tests may take part.
      dir = mkdtempSync(path.join(os.tmpdir(), "dns-account-token-lifetime-"));
      for (const k of Object.keys(process.env)) if (k.startsWith("DNS_ACCOUNT_")) delete process.env[k];
      process.env.DNS_ACCOUNT_CONFIG_DIR = dir;
      clock = sinon.useFakeTimers({ now: Date.now(), toFake: ["Date"] });
      emu = await startEmulator(lifetime !== undefined ? { tokenLifetimeSeconds: lifetime } : {});
    });
    after(async () => {
      try {
        await emu?.close();
      } finally {
        clock?.restore();
        process.env = savedEnv;
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it("keeps the access token outside the renewal window and renews it (same refresh token) inside", async () => {
      const inputs = { baseUrl: emu.url, username: "user@example.com", password: "emulator-password" };
      const { outs } = await token.create(ctx, inputs);
      const life = Date.parse(outs.expiresAt) - Date.parse(outs.renewedAt!);
      if (lifetime === undefined) assert.ok(life >= DEFAULT_TOKEN_LIFETIME_SECONDS.min * 1000 && life <= DEFAULT_TOKEN_LIFETIME_SECONDS.max * 1000, String(life));
      else assert.equal(life, lifetime * 1000);

      assert.equal((await token.diff(ctx, URN_ID, outs, inputs)).changes, false, "fresh");
      clock.setSystemTime(Date.parse(outs.expiresAt) - windowMs - 60_000);
      assert.equal((await token.diff(ctx, URN_ID, outs, inputs)).changes, false, "just before the window");
      assert.deepEqual((await token.read(ctx, URN_ID, outs)).props, outs, "refresh settles outside the window");

      clock.setSystemTime(Date.parse(outs.expiresAt) - windowMs + 60_000);
      assert.equal((await token.diff(ctx, URN_ID, outs, inputs)).changes, true, "inside the window");
      emu.resetStats();
      const renewed: TokenOutputs = (await token.update(ctx, URN_ID, outs, inputs)).outs;
      assert.equal(emu.stats.refreshGrants, 1);
      assert.equal(emu.stats.passwordGrants, 0);
      assert.notEqual(renewed.accessToken, outs.accessToken);
      assert.equal(renewed.refreshToken, outs.refreshToken);
      assert.ok(Date.parse(renewed.expiresAt) > Date.parse(outs.expiresAt), "the renewed token outlives the old one");
      assert.equal((await token.diff(ctx, URN_ID, renewed, inputs)).changes, false, "renewed: no change until its own window");
      await token.remove(ctx, URN_ID, renewed);
    });
  });
}
