import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { _repoRoot } from "../support/helpers";
import { _runInProgram, MOCKS_PRELUDE, RECORD_REGISTRATIONS } from "../support/program";

type Spec = { secret?: boolean; $ref?: string };
const schema = JSON.parse(readFileSync(path.join(_repoRoot(), "provider", "schema", "schema.json"), "utf8")) as {
  resources: Record<string, { inputProperties: Record<string, Spec>; properties: Record<string, Spec> }>;
};
const secretsOf = (props: Record<string, Spec>) => Object.entries(props).filter(([, p]) => p.secret).map(([k]) => k).sort();

/**
 * The dynamic face (issue 22 §4): a program that passes every input the schema calls secret as a plain
 * value still sends each one to the engine as a secret, and asks the engine to keep every secret output
 * secret, so neither a preview nor the state shows them in plain.
 */
describe("dynamic resources: every input the schema calls secret goes to the engine as a secret", function () {
  this.timeout(300_000);

  it("Token, DnsServer, Device and DedicatedIpv4 with plain secret inputs", async () => {
    const plain = "plain-DYN-SECRET-6b0e2f";
    const { stdout, stderr } = await _runInProgram(
      "dynamic-secret-inputs",
      `${MOCKS_PRELUDE}${RECORD_REGISTRATIONS}const { Token, DnsServer, Device, DedicatedIpv4 } = require("pulumi-dns-account");
const v = process.env.V;
const credentials = { apiKey: v, refreshToken: v, baseUrl: "https://api.example" };
const made = [
  new Token("t", { username: "u@example.com", password: v, mfaToken: v }),
  new Token("r", { refreshToken: v }),
  new DnsServer("s", { name: "Home", credentials }),
  new Device("d", { name: "Laptop", deviceType: "MAC", dnsServerId: "s1", credentials }),
  new DedicatedIpv4("i", { deviceId: "d1", credentials }),
];
Promise.all(made.map((r) => settle(r.id))).then(() => {
  const SIG = "4dabf18193072939515e22adb298388d";
  const isSecret = (x) => typeof x === "object" && x !== null && SIG in x;
  console.log(JSON.stringify(sent.map((r) => ({
    type: r.type.split(":").pop(),
    secretOutputs: r.secretOutputs.sort(),
    secretInputs: Object.keys(r.object).filter((k) => isSecret(r.object[k])).sort(),
    clear: JSON.stringify(Object.fromEntries(Object.entries(r.object).filter(([, x]) => !isSecret(x)))),
  }))));
});`,
      { V: plain },
    );
    const report = JSON.parse(stdout) as { type: string; secretOutputs: string[]; secretInputs: string[]; clear: string }[];
    assert.equal(report.length, 5);
    for (const r of report) {
      const spec = schema.resources[`dns-account:index:${r.type}`]!;
      // A Token is given either a password login or a refresh token (checked below); the others all of theirs.
      if (r.type !== "Token") assert.deepEqual(r.secretInputs, secretsOf(spec.inputProperties), `${r.type}: every secret input is sent as a secret`);
      for (const name of secretsOf(spec.properties)) {
        assert.ok(r.secretOutputs.includes(name) || r.secretInputs.includes(name), `${r.type}: the engine keeps ${name} secret`);
      }
      assert.ok(!r.clear.includes(plain), `${r.type} sends no secret in plain`);
    }
    const tokens = report.filter((r) => r.type === "Token").map((r) => r.secretInputs.join(",")).sort();
    assert.deepEqual(tokens, ["mfaToken,password", "refreshToken"]);
    assert.deepEqual(secretsOf(schema.resources["dns-account:index:Token"]!.inputProperties), ["mfaToken", "password", "refreshToken"]);
    assert.ok(!stderr.includes(plain));
  });
});
