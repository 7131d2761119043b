import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { request } from "undici";
import { DEFAULT_API_KEYS } from "../../emulator/state";
import { _cleanEnv, _useEmulator, _waitForLine } from "../support/helpers";
import { CLI, _cli as cli } from "../cli/_cli";
import { _api } from "./_api";

const RULES = ["||listed.test^", "@@||kept.test^"];

/** The service's listing quirk (issue 22 §5): listed servers come with empty user rules. */
describe("emulator: DNS server listings and user rules", () => {
  describe("by default, as the service behaves", () => {
    const emu = _useEmulator();
    const call = _api(emu);

    it("v1 and v2 listings carry empty rules (the count kept); reading the server or its settings gives them", async () => {
      const id = (await call("POST", "/oapi/v1/dns_servers", { name: "Rules", settings: { user_rules_settings: { enabled: true, rules: RULES } } })).json.id as string;
      const v1 = (await call("GET", "/oapi/v1/dns_servers")).json.find((s: { id: string }) => s.id === id);
      const v2 = (await call("GET", `/oapi/v2/dns_servers?dns_servers=${id}`)).json.items[0];
      for (const listed of [v1, v2]) {
        assert.deepEqual(listed.settings.user_rules_settings.rules, []);
        assert.equal(listed.settings.user_rules_settings.rules_count, RULES.length);
        assert.equal(listed.settings.user_rules_settings.enabled, true);
      }
      assert.deepEqual((await call("GET", `/oapi/v1/dns_servers/${id}`)).json.settings.user_rules_settings.rules, RULES);
      assert.deepEqual((await call("GET", `/oapi/v1/dns_servers/${id}/settings`)).json.user_rules_settings.rules, RULES);
    });
  });

  describe("with listingRules", () => {
    const emu = _useEmulator({ listingRules: true });
    const call = _api(emu);

    it("v1 and v2 listings carry the rules", async () => {
      const id = (await call("POST", "/oapi/v1/dns_servers", { name: "Rules", settings: { user_rules_settings: { rules: RULES } } })).json.id as string;
      const v1 = (await call("GET", "/oapi/v1/dns_servers")).json.find((s: { id: string }) => s.id === id);
      const v2 = (await call("GET", `/oapi/v2/dns_servers?dns_servers=${id}`)).json.items[0];
      assert.deepEqual(v1.settings.user_rules_settings.rules, RULES);
      assert.deepEqual(v2.settings.user_rules_settings.rules, RULES);
    });
  });

  it("the tool's --listing-rules turns it off (and its help says so)", async function () {
    this.timeout(60_000);
    const child = spawn(process.execPath, [CLI, "emulator", "--port", "0", "--quiet", "--listing-rules"], { env: _cleanEnv(), stdio: ["ignore", "pipe", "pipe"] });
    const exited = new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)));
    try {
      const url = await _waitForLine(child, /^(http:\/\/\S+)$/m);
      const headers = { authorization: `ApiKey ${DEFAULT_API_KEYS[0]!.key}`, "content-type": "application/json" };
      const made = await request(`${url}/oapi/v1/dns_servers`, { method: "POST", headers, body: JSON.stringify({ name: "Rules", settings: { user_rules_settings: { rules: RULES } } }) });
      const id = ((await made.body.json()) as { id: string }).id;
      const list = (await (await request(`${url}/oapi/v1/dns_servers`, { headers })).body.json()) as { id: string; settings: { user_rules_settings: { rules: string[] } } }[];
      assert.deepEqual(list.find((s) => s.id === id)!.settings.user_rules_settings.rules, RULES);
    } finally {
      child.kill("SIGINT");
      await exited;
    }
    const help = (await cli(["emulator", "--help"], {})).stdout;
    assert.match(help, /--listing-rules/);
  });
});
