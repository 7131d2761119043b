import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Emulator, startEmulator } from "../../emulator";
import { type Client, createClient } from "../../sdk";
import { type PluginHost, startPlugin } from "../support/engine/plugin-host";
import { _assertNoSecrets, _cleanEnv } from "../support/helpers";
import { _installedProgram, _runInProgram, MOCKS_PRELUDE } from "../support/program";

const A = { username: "lookups-a@example.com", password: "pw-LOOKUPS-A-3e81" };
const B = { username: "lookups-b@example.com", password: "pw-LOOKUPS-B-90c2" };
const FUNCTIONS = ["getFilterLists", "getWebServices", "getParentalControlCategories", "getAccountLimits"] as const;

/**
 * One product, one shape (issue 22 §6): the TypeScript lookups take the plugin's arguments
 * (`{ credentials }`) and give the plugin's results (the schema's camelCase shapes); flat credential
 * arguments are refused, naming them; with no credentials anywhere, the message names API keys too.
 */
describe("lookups: the plugin's arguments and results, in TypeScript", function () {
  this.timeout(300_000);
  let emu: Emulator;
  let keyA: string;
  let keyB: string;
  let dashboardB: Client;
  let dir: string;
  let plugin: PluginHost;
  const outputs: string[] = [];
  const env = (extra: NodeJS.ProcessEnv = {}) => ({ DNS_ACCOUNT_CONFIG_DIR: dir, ...extra });
  const secrets = () => [A.password, B.password, keyA, keyB];

  before(async () => {
    emu = await startEmulator({ users: [A, B] });
    keyA = emu.addApiKey(A.username, "key-LOOKUPS-A-6f2d0b19");
    keyB = emu.addApiKey(B.username, "key-LOOKUPS-B-1c7e5a44");
    dashboardB = createClient({ baseUrl: emu.url, apiKey: keyB });
    await dashboardB.dnsServers.create({ name: "Only in B" });
    dir = mkdtempSync(path.join(os.tmpdir(), "dns-account-lookups-"));
    const program = await _installedProgram();
    plugin = await startPlugin({ programDir: program, env: _cleanEnv(env()) });
  });

  after(async () => {
    try {
      outputs.push(plugin?.output() ?? "");
      _assertNoSecrets(outputs.join("\n"), secrets());
    } finally {
      await plugin?.stop();
      await dashboardB?.close();
      await emu?.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  /** Runs a script in the installed program with the clean environment plus `extra`; its stdout as JSON. */
  const inProgram = async (name: string, source: string, extra: NodeJS.ProcessEnv) => {
    const { stdout, stderr } = await _runInProgram(name, source, env(extra));
    outputs.push(stdout, stderr);
    return JSON.parse(stdout) as Record<string, unknown>;
  };

  it("each lookup gives exactly what the plugin's function gives for the same account: the schema's shapes", async () => {
    const ts = await inProgram(
      "lookups-shapes",
      `const lookups = require("pulumi-dns-account");
(async () => {
  const out = {};
  for (const fn of ${JSON.stringify(FUNCTIONS)}) out[fn] = await lookups[fn]();
  console.log(JSON.stringify(out));
})();`,
      { DNS_ACCOUNT_BASE_URL: emu.url, DNS_ACCOUNT_API_KEY: keyA },
    );
    await plugin.configureArgs({ baseUrl: emu.url, apiKey: keyA }, ["apiKey"]);
    for (const fn of FUNCTIONS) {
      const { outputs: fromPlugin, failures } = await plugin.invoke(`dns-account:index:${fn}`, {});
      assert.deepEqual(failures, []);
      // Every call counts against the API-requests quota: its use differs between two reads.
      const stable = (r: unknown) => JSON.parse(JSON.stringify(r, (k, v: unknown) => (k === "requests" ? { ...(v as object), used: typeof (v as { used: unknown }).used } : v))) as unknown;
      assert.deepEqual(stable(ts[fn]), stable(fromPlugin), fn);
    }
    const lists = (ts.getFilterLists as { filterLists: { filterId: string }[] }).filterLists;
    assert.ok(lists.some((l) => l.filterId === "adguard_dns_filter"));
    assert.ok(!JSON.stringify(ts).includes('_id"'), "camelCase keys");
    assert.equal((ts.getAccountLimits as { dnsServers: { used: number } }).dnsServers.used, 1);
  });

  it("take { credentials } as the plugin's functions do: the call's API key wins over the environment's, in both forms", async () => {
    const out = await inProgram(
      "lookups-credentials",
      `${MOCKS_PRELUDE}const { getAccountLimits, getAccountLimitsOutput } = require("pulumi-dns-account");
(async () => {
  const plain = await getAccountLimits({ credentials: { baseUrl: process.env.URL, apiKey: process.env.KEY_B } });
  const output = getAccountLimitsOutput({ credentials: { baseUrl: pulumi.output(process.env.URL), apiKey: pulumi.secret(process.env.KEY_B) } });
  const used = await settle(output.dnsServers.used);
  const secret = await output.isSecret;
  console.log(JSON.stringify({ plain: plain.dnsServers.used, output: used, secret }));
})();`,
      { DNS_ACCOUNT_BASE_URL: emu.url, DNS_ACCOUNT_API_KEY: keyA, URL: emu.url, KEY_B: keyB },
    );
    assert.deepEqual(out, { plain: 2, output: 2, secret: true });
    const { outputs: fromPlugin } = await plugin.invoke("dns-account:index:getAccountLimits", { credentials: { baseUrl: emu.url, apiKey: keyB } });
    assert.equal((fromPlugin.dnsServers as { used: number }).used, 2);
  });

  it("flat credential arguments, unknown credentials and Inputs in the plain form are refused, naming them", async () => {
    const out = await inProgram(
      "lookups-refused",
      `${MOCKS_PRELUDE}const { getFilterLists } = require("pulumi-dns-account");
const outcome = (p) => p.then(() => ({ ok: true }), (e) => ({ code: e.code, field: e.field, message: e.message }));
(async () => {
  console.log(JSON.stringify({
    flat: await outcome(getFilterLists({ apiKey: process.env.KEY_B })),
    password: await outcome(getFilterLists({ credentials: { password: process.env.KEY_B } })),
    input: await outcome(getFilterLists({ credentials: { apiKey: pulumi.output(process.env.KEY_B) } })),
  }));
})();`,
      { DNS_ACCOUNT_BASE_URL: emu.url, DNS_ACCOUNT_API_KEY: keyA, KEY_B: keyB },
    );
    assert.deepEqual(out.flat, {
      code: "invalid_config",
      field: "apiKey",
      message: "apiKey is not an argument of getFilterLists: it takes { credentials }: an apiKey, or a Token's baseUrl and refreshToken",
    });
    assert.equal((out.password as { field: string }).field, "credentials.password");
    assert.deepEqual(out.input, {
      code: "invalid_config",
      field: "credentials.apiKey",
      message: "credentials.apiKey is an Input: give it to getFilterListsOutput, which takes Inputs",
    });
  });

  it("with no credentials anywhere, both faces say the same, naming API keys among the ways to give them", async () => {
    const out = await inProgram(
      "lookups-none",
      `const { getFilterLists } = require("pulumi-dns-account");
getFilterLists().then(() => console.log("{}"), (e) => console.log(JSON.stringify({ code: e.code, field: e.field, message: e.message })));`,
      { DNS_ACCOUNT_BASE_URL: emu.url },
    );
    assert.equal(out.code, "invalid_config");
    assert.equal(out.field, "credentials");
    for (const words of ["give the call credentials ({ apiKey }", "dns-account:apiKey", "DNS_ACCOUNT_API_KEY", "dns-account login"]) {
      assert.ok(String(out.message).includes(words), `names ${words}: ${String(out.message)}`);
    }
    await plugin.configureArgs({ baseUrl: emu.url });
    const err = await plugin.invoke("dns-account:index:getFilterLists", {}).then(
      () => undefined,
      (e: Error) => e,
    );
    assert.ok(String(err?.message).includes(String(out.message)), String(err?.message));
  });
});
