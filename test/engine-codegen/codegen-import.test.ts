import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { _goMissing, _goModule, _installPlugin, _pythonProgram, _sdkVenv, _typescriptProject } from "../support/codegen-project";
import { _engineSuite, _seededAccount } from "../support/engine-suite";
import { _assertNoSecrets, _cleanEnv, _repoRoot } from "../support/helpers";
import { _engineMissing, type PulumiProject, _stackProject } from "../support/pulumi-cli";
import { _pythonMissing } from "../support/python-venv";

const run = promisify(execFile);
const API_KEY = "key-ENGINE-CODEGEN-3e8a51d0";

/** One resource of `dns-account export`'s file. */
interface Exported {
  type: string;
  name: string;
  logicalName: string;
  id: string;
}

/**
 * Issue 33 §3: `dns-account export` → `pulumi import --file … --generate-code --out …` into a
 * TypeScript, a Python and a Go project under the real engine and its language hosts (which generate the
 * code, from the installed plugin's schema), on a seeded emulator account. The generated code, used as
 * the program as it is, must run `pulumi preview --expect-no-changes` with no changes: TypeScript on the
 * SDK `pulumi package add` generates from the schema (what sdks/nodejs holds), Python in a venv with
 * `pulumi` and the sdks/python wheel, Go on sdks/go through a `replace`. The suite fails (it does not
 * skip) without a language host, Python or Go.
 */
describe("engine: dns-account export, pulumi import --generate-code in TypeScript, Python and Go, the code previews with no changes", function () {
  this.timeout(1_800_000);
  let exported: string;
  let file: { resources: Exported[] };
  const suite = _engineSuite({
    missing: () => _engineMissing("nodejs", "python", "go") ?? _pythonMissing() ?? _goMissing(),
    prefix: "dns-account-engine-codegen-",
    apiKey: API_KEY,
    emulator: { seed: _seededAccount() },
  });

  before(async function () {
    const started = Date.now();
    const configDir = path.join(suite.root, "dns-account-config");
    mkdirSync(configDir);
    exported = (
      await run(process.execPath, [path.join(_repoRoot(), "dist", "cli", "main.js"), "export"], {
        env: _cleanEnv({ DNS_ACCOUNT_BASE_URL: suite.emu.url, DNS_ACCOUNT_API_KEY: API_KEY, DNS_ACCOUNT_CONFIG_DIR: configDir }),
      })
    ).stdout;
    file = JSON.parse(exported) as { resources: Exported[] };
    assert.equal(file.resources.length, 7);
    console.log(`      export in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  });

  /**
   * A stack of `program` with the plugin installed, the export imported with the code generated into
   * `out` (returned), the import's state checked: each resource named by the export's logicalName.
   */
  async function imported(prefix: string, program: string, out: string): Promise<{ project: PulumiProject; code: string; logs: string[] }> {
    const project = await _stackProject(prefix, { program, config: { "dns-account:baseUrl": suite.emu.url, "dns-account:apiKey": { secret: API_KEY } } });
    suite.projects.push(project);
    await _installPlugin(project, suite.tarball);
    writeFileSync(path.join(project.dir, "account.json"), exported);
    const logs = [await project.pulumi("import", "--file", "account.json", "--yes", "--protect=false", "--generate-code", "--out", out)];
    const state = await project.pulumi("stack", "export");
    const resources = (JSON.parse(state) as { deployment: { resources: { urn: string; type: string; id?: string }[] } }).deployment.resources;
    assert.deepEqual(
      resources.filter((r) => r.type.startsWith("dns-account:index:")).map((r) => [r.urn.split("::").pop(), r.id]).sort(),
      file.resources.map((r) => [r.logicalName, r.id]).sort(),
    );
    logs.push(state);
    return { project, code: readFileSync(path.join(project.dir, out), "utf8"), logs };
  }

  /** The next preview of the generated program changes nothing; the API key appears nowhere. */
  async function noChanges(project: PulumiProject, logs: string[]): Promise<void> {
    const started = Date.now();
    const out = await project.pulumi("preview", "--expect-no-changes");
    console.log(`      preview --expect-no-changes in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    assert.match(out, /8 unchanged/);
    _assertNoSecrets([...logs, out].join("\n"), [API_KEY]);
  }

  /** `pattern` with `name` for its logical name, escaped. */
  const esc = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

  it("TypeScript: the generated index.ts, on the SDK package add generates, previews with no changes", async () => {
    const { project, code, logs } = await imported("dns-account-engine-codegen-ts-", "name: dns-account-codegen\nruntime: nodejs\n", "index.ts");
    assert.match(code, /^import \* as dns_account from "@pulumi-dns-account\/dns-account";$/m);
    for (const r of file.resources) assert.match(code, new RegExp(`new dns_account\\.${r.type.split(":").pop()}\\("${esc(r.logicalName)}"`), `declares ${r.logicalName}`);
    // Enum members are the SDK's own (BlockingModeKind.NullIP, DeviceType.Android), references are variables.
    assert.match(code, /mode: dns_account\.BlockingModeKind\.Nxdomain,/);
    assert.match(code, /deviceType: dns_account\.DeviceType\.Android,/);
    assert.match(code, /dnsServerId: kidsServer\.id,/);
    assert.match(code, /\{deviceId: phoneDevice\.id\}/);
    logs.push(await _typescriptProject(project));
    await noChanges(project, logs);
  });

  it("Python: the generated __main__.py, in a venv with the sdks/python wheel, previews with no changes", async () => {
    const venv = await _sdkVenv(path.join(suite.root, "venv"), path.join(suite.root, "wheel"));
    const { project, code, logs } = await imported("dns-account-engine-codegen-py-", _pythonProgram("dns-account-codegen", venv.dir), "__main__.py");
    assert.match(code, /^import pulumi_dns_account as dns_account$/m);
    for (const r of file.resources) assert.match(code, new RegExp(`dns_account\\.${r.type.split(":").pop()}\\("${esc(r.logicalName)}"`), `declares ${r.logicalName}`);
    assert.match(code, /"mode": dns_account\.BlockingModeKind\.NXDOMAIN,/);
    assert.match(code, /device_type=dns_account\.DeviceType\.ANDROID,/);
    assert.match(code, /dns_server_id=kids_server\.id,/);
    assert.match(code, /"block_ttl_seconds": 120,/);
    await noChanges(project, logs);
  });

  it("Go: the generated main.go, on sdks/go through a replace, previews with no changes", async () => {
    const { project, code, logs } = await imported("dns-account-engine-codegen-go-", "name: dns-account-codegen\nruntime: go\n", "main.go");
    assert.match(code, /^\t"github\.com\/pulumi-dns-account\/pulumi-dns-account\/sdks\/go\/dnsaccount"$/m);
    for (const r of file.resources) assert.match(code, new RegExp(`dnsaccount\\.New${r.type.split(":").pop()}\\(ctx, "${esc(r.logicalName)}"`), `declares ${r.logicalName}`);
    assert.match(code, /Mode: dnsaccount\.BlockingModeKindNxdomain,/);
    assert.match(code, /DeviceType: +dnsaccount\.DeviceTypeAndroid,/);
    assert.match(code, /DnsServerId: kidsServer\.ID\(\),/);
    const started = Date.now();
    await _goModule(project);
    console.log(`      go mod tidy in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    await noChanges(project, logs);
  });
});
