import assert from "node:assert/strict";
import { type Emulator, startEmulator } from "../../emulator";
import { _assertNoSecrets } from "../support/helpers";
import { _runInProgram, MOCKS_PRELUDE } from "../support/program";

const KEY = "stack-api-key-0123456789abcdef";

/** getClient with an API key from stack config (a secret) or DNS_ACCOUNT_API_KEY, in an installed program. */
describe("Pulumi program side: API keys (setMocks, installed copy)", function () {
  this.timeout(120_000);
  let emu: Emulator;
  before(async () => {
    emu = await startEmulator({ apiKeys: [{ key: KEY, username: "user@example.com" }] });
  });
  after(async () => emu?.close());

  it("stack config dns-account:apiKey: getClient calls with ApiKey and logs in nowhere; a wrong key is invalid_api_key", async () => {
    emu.resetStats();
    const { stdout, stderr } = await _runInProgram(
      "api-key-config",
      `${MOCKS_PRELUDE}
pulumi.runtime.setAllConfig({ "dns-account:apiKey": process.env.K, "dns-account:baseUrl": process.env.U }, ["dns-account:apiKey"]);
const { getClient } = require("pulumi-dns-account");
(async () => {
  const clients = await Promise.all([getClient(), getClient()]);
  const limits = await clients[0].account.limits();
  let tokenError;
  try { await require("pulumi-dns-account").getClient({ baseUrl: process.env.U, apiKey: "wrong-key-000000000000" }).then((c) => c.account.limits()); } catch (e) { tokenError = e.code; }
  console.log(JSON.stringify({ same: clients[0] === clients[1], limits: !!limits.devices, mode: clients[0].authMode, wrong: tokenError }));
})();`,
      { K: KEY, U: emu.url },
    );
    assert.deepEqual(JSON.parse(stdout.trim().split("\n").at(-1)!), { same: true, limits: true, mode: "apiKey", wrong: "invalid_api_key" });
    assert.equal(emu.stats.tokenCalls, 0);
    assert.ok(emu.stats.apiKeyCalls >= 1);
    _assertNoSecrets(stdout + stderr, [KEY]);
  });

  it("DNS_ACCOUNT_API_KEY works when config and args hold nothing", async () => {
    emu.resetStats();
    const { stdout } = await _runInProgram(
      "api-key-env",
      `${MOCKS_PRELUDE}
const { getClient } = require("pulumi-dns-account");
getClient().then(async (c) => console.log(JSON.stringify({ mode: c.authMode, limits: !!(await c.account.limits()).devices })));`,
      { DNS_ACCOUNT_API_KEY: KEY, DNS_ACCOUNT_BASE_URL: emu.url },
    );
    assert.deepEqual(JSON.parse(stdout), { mode: "apiKey", limits: true });
    assert.equal(emu.stats.tokenCalls, 0);
  });
});
