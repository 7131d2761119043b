import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { _cli } from "../cli/_cli";
import { _repoRoot } from "../support/helpers";
import { _useTempDirs } from "../support/temp";
import { TERRAFORM_SOURCE, TOFU_SOURCE, _tofuSuite } from "../support/tofu-project";
import { _cliMissing, _cliPath, _failWithoutTofu, _terraformVersion, _tofuEnv } from "../support/tofu-cli";

const run = promisify(execFile);

const API_KEY = "key-TERRAFORM-4b7e19a2c6";

/** Names that would break or inject into a configuration written naively (a few of export-hcl.test.ts's). */
const NAMES = ["${file(\"/etc/passwd\")}", "%{ if true }x%{ endif }", 'say "hi"\\', "line\nbreak", "bidi \u202Eevil\u202C", "Home", "home"];

/**
 * The provider under Terraform (`npm run terraform` builds it from its Go module; see
 * scripts/install-terraform.sh), as docs/opentofu.md's "Terraform" section tells a Terraform user: the
 * release installed by `terraform init` from the same filesystem mirror at registry.terraform.io, the
 * five-minute configuration (examples/tofu-home-network) with that source address, an in-place change,
 * an `import` block, destroy; then `dns-account export --format hcl` of an account with hostile names,
 * its source address changed as the docs say, planned as imports only and applied with no change after.
 */
describe(`tofu: the provider under Terraform ${_terraformVersion()}`, function () {
  this.timeout(900_000);
  const suite = _tofuSuite({
    prefix: "dns-account-terraform-",
    cli: "terraform",
    emulator: { limits: { dns_servers: 20, devices: 20 } },
    dashboard: { username: "user@example.com", apiKey: API_KEY },
    env: (emu) => ({ DNS_ACCOUNT_API_KEY: API_KEY, DNS_ACCOUNT_BASE_URL: emu.url }),
    secrets: () => [API_KEY],
  });
  /** A configuration of ours for Terraform: its tofu source address replaced, as the docs say. */
  const forTerraform = (hcl: string): string => {
    assert.ok(hcl.includes(`"${TOFU_SOURCE}"`), "the configuration names the OpenTofu address");
    return hcl.replaceAll(`"${TOFU_SOURCE}"`, `"${TERRAFORM_SOURCE}"`);
  };
  const main = (hcl: string): void => writeFileSync(path.join(suite.project.dir, "main.tf"), hcl);

  it("the five-minute configuration: apply, a plan with no changes, its output, an in-place change, an import block, destroy", async () => {
    const example = readFileSync(path.join(_repoRoot(), "examples", "tofu-home-network", "main.tf"), "utf8");
    main(forTerraform(example));
    const applied = await suite.ok("apply", "-auto-approve");
    assert.match(applied, /Apply complete! Resources: 2 added, 0 changed, 0 destroyed\./, applied);
    const [laptop] = (await suite.dashboard.devices.list()).filter((d) => d.name === "Laptop");
    assert.ok(laptop, "the device is in the account");
    assert.equal((await suite.plan()).code, 0, "no changes after apply");
    const doh = (await suite.ok("output", "-raw", "laptop_doh")).trim();
    assert.match(doh, new RegExp(`^https://${laptop.id}\\.`), doh);

    // An in-place change, then an object made outside the configuration brought in by an import block.
    main(forTerraform(example).replace('name          = "Laptop"', 'name          = "Work laptop"'));
    const change = await suite.plan();
    assert.equal(change.code, 2, change.out);
    assert.match(change.out, /Plan: 0 to add, 1 to change, 0 to destroy\./, change.out);
    await suite.ok("apply", "-auto-approve");
    assert.equal((await suite.dashboard.devices.get(laptop.id)).name, "Work laptop");
    const made = await suite.dashboard.dnsServers.create({ name: "Made in the dashboard" });
    main(`${forTerraform(example)}\nimport {\n  to = dnsaccount_dns_server.outside\n  id = "${made.id}"\n}\n\nresource "dnsaccount_dns_server" "outside" {\n  name = "Made in the dashboard"\n}\n`);
    const imported = await suite.ok("apply", "-auto-approve");
    assert.match(imported, /Resources: 1 imported, 0 added, 1 changed, 0 destroyed\./, imported);
    assert.equal((await suite.plan()).code, 0, "no changes after the import");

    const destroyed = await suite.ok("destroy", "-auto-approve");
    assert.match(destroyed, /Destroy complete! Resources: 3 destroyed\./, destroyed);
    const left = new Set((await suite.dashboard.dnsServers.list()).map((s) => s.name));
    assert.ok(!left.has("Home") && !left.has("Made in the dashboard"), `servers left: ${[...left].join(", ")}`);
    assert.deepEqual((await suite.dashboard.devices.list()).map((d) => d.name), []);
  });

  it("dns-account export --format hcl with Terraform's source address: plan shows only imports; apply; then no changes", async () => {
    const servers: string[] = [];
    for (const name of NAMES) servers.push((await suite.dashboard.dnsServers.create({ name })).id);
    for (const [i, name] of NAMES.entries()) await suite.dashboard.devices.create({ name, device_type: "ANDROID", dns_server_id: servers[i]! });
    const total = (await suite.dashboard.dnsServers.list()).length + NAMES.length;
    const r = await _cli(["export", "--format", "hcl"], { DNS_ACCOUNT_API_KEY: API_KEY, DNS_ACCOUNT_BASE_URL: suite.emu.url });
    assert.equal(r.code, 0, r.stderr);
    main(forTerraform(suite.record(r.stdout)));
    await suite.ok("validate");
    const plan = await suite.plan();
    assert.equal(plan.code, 2, plan.out);
    assert.match(plan.out, new RegExp(`Plan: ${total} to import, 0 to add, 0 to change, 0 to destroy\\.`), plan.out);
    const applied = await suite.ok("apply", "-auto-approve");
    assert.match(applied, new RegExp(`Resources: ${total} imported, 0 added, 0 changed, 0 destroyed`), applied);
    const names = [...suite.project.resources().values()].map((v) => String(v.name));
    for (const name of NAMES) assert.equal(names.filter((n) => n === name).length, 2, `${JSON.stringify(name)} read back exactly, as a server's and a device's name`);
    const after = await suite.plan();
    assert.equal(after.code, 0, after.out);
    assert.match(after.out, /No changes\./);
  });
});

/**
 * What scripts/install-terraform.sh leaves out of Terraform: the remote-state backends whose source its
 * module's zip lacks (the script's other checks are test/tofu/tofu-script.test.ts's, for both CLIs).
 */
describe("tofu: the Terraform that npm run terraform builds", function () {
  this.timeout(300_000);
  const tmp = _useTempDirs();

  before(() => _failWithoutTofu(_cliMissing("terraform")));

  it("a backend the build leaves out (s3) is refused as unknown; the local one is Terraform's own", async () => {
    const dir = tmp("dns-account-terraform-backend-");
    writeFileSync(path.join(dir, "main.tf"), 'terraform {\n  backend "s3" {}\n}\n');
    const refused = await run(_cliPath("terraform"), ["init", "-no-color", "-input=false"], { cwd: dir, env: _tofuEnv(dir) }).then(
      () => "",
      (e: { stdout?: string; stderr?: string }) => `${e.stdout ?? ""}${e.stderr ?? ""}`,
    );
    assert.match(refused, /Unsupported backend type|backend "s3" is not/i, refused);
    writeFileSync(path.join(dir, "main.tf"), 'terraform {\n  backend "local" {}\n}\n');
    const local = await run(_cliPath("terraform"), ["init", "-no-color", "-input=false"], { cwd: dir, env: _tofuEnv(dir) });
    assert.match(local.stdout, /Successfully configured the backend "local"/, local.stdout);
  });
});
