import assert from "node:assert/strict";
import { readFileSync, existsSync } from "node:fs";
import path from "node:path";
import { type Emulator, startEmulator } from "../../emulator";
import { _hasScript, _onTty } from "./_cli";
import { _useTempDirs } from "../support/temp";

const PASSWORD = "pw-PROMPT-LEAK-5e1c0a";

describe("dns-account CLI prompts on a terminal: Ctrl-C, Ctrl-D and empty answers", function () {
  const tmp = _useTempDirs();
  this.timeout(60_000);
  let emu: Emulator;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  const profiles = (): string[] => {
    const file = path.join(dir, "credentials.json");
    return existsSync(file) ? Object.keys((JSON.parse(readFileSync(file, "utf8")) as { profiles: object }).profiles) : [];
  };

  before(async function () {
    if (!_hasScript()) {
      console.log("      skipped: script(1) is not available to provide a terminal");
      this.skip();
    }
    emu = await startEmulator({ users: [{ username: "mfa@example.com", password: PASSWORD, mfa: true }] });
    dir = tmp("dns-account-prompt-");
    env = { DNS_ACCOUNT_CONFIG_DIR: dir, DNS_ACCOUNT_BASE_URL: emu.url };
  });
  after(async () => {
    await emu?.close();
  });

  const cases: [string, [RegExp, string, boolean?][], number, RegExp][] = [
    ["Ctrl-C at the password prompt exits 130", [[/Password: /, "\x03", true]], 130, /interrupted \(Ctrl-C\)/],
    ["Ctrl-D at the password prompt exits 1", [[/Password: /, "\x04", true]], 1, /end of input/],
    ["Ctrl-C at the MFA prompt exits 130", [[/Password: /, PASSWORD], [/Two-factor code: /, "\x03", true]], 130, /interrupted \(Ctrl-C\)/],
    ["Ctrl-D at the MFA prompt exits 1", [[/Password: /, PASSWORD], [/Two-factor code: /, "\x04", true]], 1, /end of input/],
    ["an empty password is refused as empty, not as a missing terminal", [[/Password: /, ""]], 1, /no_credentials: The password is empty/],
  ];
  for (const [title, answers, code, message] of cases) {
    it(`${title}, with a short message, storing nothing`, async () => {
      const r = await _onTty(["login", "--profile", "p", "--username", "mfa@example.com"], env, answers);
      assert.equal(r.code, code, r.stdout);
      assert.match(r.stdout, message);
      assert.ok(!r.stdout.includes("No terminal"));
      assert.ok(!r.stdout.includes(PASSWORD), "the password is not echoed");
      assert.deepEqual(profiles(), []);
    });
  }

  it("Ctrl-D at the e-mail prompt exits 1", async () => {
    const r = await _onTty(["login", "--profile", "p"], env, [[/E-mail: /, "\x04", true]]);
    assert.equal(r.code, 1, r.stdout);
    assert.match(r.stdout, /end of input/);
    assert.deepEqual(profiles(), []);
  });

  it("`dns-account login && next` stops at a Ctrl-C", async () => {
    const r = await _onTty(["login", "--profile", "p", "--username", "mfa@example.com"], env, [[/Password: /, "\x03", true]]);
    assert.notEqual(r.code, 0);
  });
});
