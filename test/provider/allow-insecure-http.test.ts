import assert from "node:assert/strict";
import { type Emulator, startEmulator } from "../../emulator";
import { startProviderHost } from "../support/engine/provider-host";
import { _cleanEnv } from "../support/helpers";
import { _installedProgram, _runInProgram, MOCKS_PRELUDE } from "../support/program";
import { _namedHost } from "../support/named-hosts";

const URN = "urn:pulumi:dev::dns-account-test::pulumi-nodejs:dynamic/dns-account:Token::insecure";
const PASSWORD = "pw-INSECURE-4a9c1e";

describe("stack config dns-account:allowInsecureHttp: an emulator at http://emulator:8787 (docker-compose)", function () {
  this.timeout(180_000);
  let emu: Emulator;
  let named: ReturnType<typeof _namedHost>;
  let provider: string;
  let program: string;
  const env = () => _cleanEnv(named.env);
  const config = () => ({ "dns-account:baseUrl": named.url, "dns-account:username": "ops@example.com", "dns-account:password": PASSWORD });

  before(async () => {
    emu = await startEmulator({ users: [{ username: "ops@example.com", password: PASSWORD }], allowedHosts: ["emulator"] });
    named = _namedHost(emu.url);
    program = await _installedProgram();
    const { stdout } = await _runInProgram(
      "serialize-insecure",
      `${MOCKS_PRELUDE}
const { Token } = require("pulumi-dns-account");
new Token("insecure", {});
process.once("beforeExit", () => console.log(JSON.stringify(resources.find((r) => r.inputs.__provider).inputs.__provider)));`,
    );
    provider = JSON.parse(stdout) as string;
  });
  after(async () => {
    await emu?.close();
  });

  it("without it, check names baseUrl; with it, create and delete go through http://emulator:8787", async () => {
    const refused = await startProviderHost({ programDir: program, env: env() });
    try {
      await refused.configure(config(), ["dns-account:password"]);
      const { failures } = await refused.check(URN, {}, { __provider: provider });
      assert.deepEqual(failures.map((f) => f.property), ["baseUrl"]);
    } finally {
      await refused.close();
    }
    const host = await startProviderHost({ programDir: program, env: env() });
    try {
      await host.configure({ ...config(), "dns-account:allowInsecureHttp": "true" }, ["dns-account:password"]);
      assert.deepEqual((await host.check(URN, {}, { __provider: provider })).failures, []);
      const created = await host.create(URN, { __provider: provider });
      assert.equal(created.properties.baseUrl, named.url);
      await host.delete(created.id, URN, created.properties);
      assert.equal(emu.stats.revokeCalls, 1);
    } finally {
      await host.close();
    }
  });
});
