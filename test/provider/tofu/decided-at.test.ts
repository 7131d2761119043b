import assert from "node:assert/strict";
import { type Emulator, startEmulator } from "../../../emulator";
import { applyResource, planResource, privateAt, seenAt, servedKinds } from "../../../provider/tofu/resources";
import { terraformSchema } from "../../../provider/tofu/schema";
import { fromProgram, type TfValue } from "../../../provider/tofu/values";
import { _closeAll } from "../../support/helpers";

const USER = { username: "tofu-clock@example.com", password: "pw-TOFU-CLOCK-71c4e0a9" };
const HOUR = 3_600_000;

/**
 * Issue 34: a plan decides by time (a Token due for rotation) at the time of the refresh it rests on, which
 * tofu hands over as the state's private bytes; so a saved plan and the plan tofu makes again at apply agree
 * ("Provider produced inconsistent final plan" otherwise, once a rotation falls due in between).
 */
describe("OpenTofu face: decisions by time are made at the refresh's time", () => {
  let emu: Emulator;
  before(async () => {
    emu = await startEmulator({ users: [USER] });
  });
  after(() => _closeAll(() => emu?.close()));

  it("private bytes carry the time; anything else reads as none", () => {
    assert.equal(seenAt(privateAt(1_700_000_000_000)), 1_700_000_000_000);
    for (const bytes of [undefined, null, Buffer.alloc(0), Buffer.from("not json"), Buffer.from('{"seenAt":"soon"}'), Buffer.from(`{"seenAt":1,"pad":"${"x".repeat(2000)}"}`)]) {
      assert.equal(seenAt(bytes), undefined);
    }
  });

  it("a Token due for rotation now, but not when its state was refreshed, plans no replacement; without that time it does", async () => {
    const kind = servedKinds(terraformSchema()).resources.get("dnsaccount_token")!;
    const contextFor = () => ({ config: { baseUrl: emu.url, username: USER.username, password: USER.password }, allowInsecureHttp: true, warn: () => undefined });
    const config = fromProgram({ rotationPeriodSeconds: 3600 }, kind.shape);
    const created = await planResource(kind, null, config, config, contextFor);
    assert.deepEqual(created.diagnostics, []);
    const applied = await applyResource(kind, null, created.planned, config, contextFor);
    assert.deepEqual(applied.diagnostics, []);
    const state = applied.state as Record<string, TfValue>;
    try {
      // Issued two hours ago (due by the wall clock), refreshed 30 minutes after it was issued (not due then).
      const issued = Date.now() - 2 * HOUR;
      const aged: TfValue = { ...state, issued_at: new Date(issued).toISOString(), renewed_at: new Date(issued).toISOString(), expires_at: new Date(issued + 48 * HOUR).toISOString() };
      const proposed = { ...(aged as Record<string, TfValue>) };
      const atRefresh = await planResource(kind, aged, proposed, config, contextFor, privateAt(issued + HOUR / 2));
      assert.deepEqual(atRefresh.diagnostics, []);
      assert.deepEqual(atRefresh.requiresReplace, [], "the plan at the refresh's time replaces the token");
      const byWallClock = await planResource(kind, aged, proposed, config, contextFor);
      assert.deepEqual(byWallClock.requiresReplace, [{ steps: [{ attribute_name: "issued_at" }] }]);
    } finally {
      const destroyed = await applyResource(kind, state, null, null, contextFor);
      assert.deepEqual(destroyed.diagnostics, []);
    }
  });
});
