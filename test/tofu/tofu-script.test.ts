import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { _repoRoot } from "../support/helpers";
import { _useTempDirs } from "../support/temp";
import { _cliMissing, _cliPath, _failWithoutTofu, _terraformBin, _terraformVersion, _tofuBin, _tofuEnv, _tofuVersion, TERRAFORM_DEFAULT_VERSION, TOFU_DEFAULT_VERSION, type TofuCli } from "../support/tofu-cli";

const run = promisify(execFile);
/** Proxies that lead nowhere: a `tofu` that tried the network would fail on them, with another message. */
const NO_NETWORK = { HTTPS_PROXY: "http://127.0.0.1:9", HTTP_PROXY: "http://127.0.0.1:9", https_proxy: "http://127.0.0.1:9", http_proxy: "http://127.0.0.1:9", NO_PROXY: "", no_proxy: "" };

/** What differs between the two scripts' tests: the CLI, its script, version variable, default, module and bin folder. */
const CLIS: Record<TofuCli, { product: string; variable: string; fallback: string; module: string; bin: () => string; version: () => string }> = {
  tofu: { product: "OpenTofu", variable: "TOFU_VERSION", fallback: TOFU_DEFAULT_VERSION, module: "github.com/opentofu/opentofu", bin: _tofuBin, version: _tofuVersion },
  terraform: { product: "Terraform", variable: "TERRAFORM_VERSION", fallback: TERRAFORM_DEFAULT_VERSION, module: "github.com/hashicorp/terraform", bin: _terraformBin, version: _terraformVersion },
};
const script = (cli: TofuCli): string => path.join(_repoRoot(), "scripts", `install-${cli}.sh`);
const escaped = (s: string): string => s.replace(/[.]/g, "\\.");

/** What a child printed and how it ended, whether it failed or not. */
interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

async function ran(file: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<Ran> {
  return run(file, args, { ...options, maxBuffer: 16 * 1024 * 1024 }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (e: Error & { code?: number; stdout?: string; stderr?: string }) => ({ code: typeof e.code === "number" ? e.code : -1, stdout: e.stdout ?? "", stderr: e.stderr ?? "" }),
  );
}

/**
 * `scripts/install-tofu.sh` (`npm run tofu`, issue 34 "An engine for the tests") and
 * `scripts/install-terraform.sh` (`npm run terraform`, issue 35): the real OpenTofu and Terraform, built
 * from their Go modules into a cache outside the repository (scripts/go-cli-build.sh, the steps they
 * share). Each suite fails (never skips) when its binary is not there: the npm script builds it.
 */
for (const cli of ["tofu", "terraform"] as const) {
  const c = CLIS[cli];
  describe(`tofu: npm run ${cli} builds ${c.product} from its Go module`, function () {
    this.timeout(300_000);
    const tmp = _useTempDirs();

    before(() => _failWithoutTofu(_cliMissing(cli)));

    it(`the built ${cli} answers \`${cli} version -json\` with the expected version, a release build for this platform`, async () => {
      const dir = tmp(`dns-account-${cli}-version-`);
      const { stdout } = await run(_cliPath(cli), ["version", "-json"], { cwd: dir, env: _tofuEnv(dir) });
      const answer = JSON.parse(stdout) as { terraform_version?: string; platform?: string };
      assert.equal(answer.terraform_version, c.version(), stdout);
      // The release flag (-X version.dev=no) drops the "-dev" marker.
      assert.doesNotMatch(stdout, /-dev/);
      const arch = ({ x64: "amd64", arm64: "arm64", ia32: "386" } as Record<string, string>)[process.arch] ?? process.arch;
      assert.equal(answer.platform, `${process.platform}_${arch}`);
    });

    it("the script's default version is the one the tests expect", () => {
      assert.match(readFileSync(script(cli), "utf8"), new RegExp(`\\$\\{${c.variable}:-${escaped(c.fallback)}\\}`));
    });

    it("run again, the script builds nothing and prints the bin folder as its last line", async () => {
      const env = { ...process.env };
      delete env.TOFU_BIN;
      delete env.TERRAFORM_BIN;
      const r = await ran("bash", [script(cli)], { cwd: _repoRoot(), env });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout.trimEnd().split("\n").at(-1), c.bin());
      assert.match(r.stderr, new RegExp(`${cli} ${escaped(c.version())} is there already`));
      assert.doesNotMatch(r.stderr, /building/);
    });

    it("without go on PATH the script fails and names what is missing", async () => {
      const dir = tmp(`dns-account-${cli}-nogo-`);
      const onlyNode = path.join(dir, "path");
      mkdirSync(onlyNode);
      symlinkSync(process.execPath, path.join(onlyNode, "node"));
      const r = await ran("/bin/bash", [script(cli)], { cwd: dir, env: { ...process.env, PATH: onlyNode, XDG_CACHE_HOME: path.join(dir, "cache") } });
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stderr, new RegExp(`install-${cli}: go is missing: the Go toolchain \\(go on PATH\\) is needed to build ${c.product}`));
      assert.equal(r.stdout, "", "no bin folder is printed");
    });

    it("a version the Go module proxy does not serve fails the script with the proxy's own error", async () => {
      const dir = tmp(`dns-account-${cli}-noversion-`);
      const bogus = `${c.fallback.split(".").slice(0, 2).join(".")}.999`;
      const r = await ran("bash", [script(cli)], { cwd: dir, env: { ...process.env, [c.variable]: `v${bogus}`, XDG_CACHE_HOME: path.join(dir, "cache") } });
      assert.equal(r.code, 1, r.stderr);
      const at = escaped(`${c.module}@v${bogus}`).replace(/\//g, "\\/");
      assert.match(r.stderr, new RegExp(`install-${cli}: the Go module proxy does not give ${at}: ${at}: `));
      assert.match(r.stderr, /403|404|not found|not available|unknown revision/i);
      assert.equal(r.stdout, "", "no bin folder is printed");
    });
  });
}

describe("tofu: the built tofu offline", function () {
  this.timeout(300_000);
  const tmp = _useTempDirs();

  before(() => _failWithoutTofu(_cliMissing("tofu")));

  it("tofu init with a filesystem_mirror of the test's own that holds nothing fails, naming the provider and the mirror, offline", async () => {
    const dir = tmp("dns-account-tofu-init-");
    const mirror = path.join(dir, "mirror");
    const work = path.join(dir, "config");
    mkdirSync(mirror);
    mkdirSync(work);
    writeFileSync(
      path.join(work, "main.tf"),
      `terraform {\n  required_providers {\n    dnsaccount = {\n      source = "registry.opentofu.org/pulumi-dns-account/dnsaccount"\n    }\n  }\n}\n`,
    );
    const cliConfig = `provider_installation {\n  filesystem_mirror {\n    path = ${JSON.stringify(mirror)}\n  }\n}\n`;
    const r = await ran(path.join(_tofuBin(), "tofu"), ["init", "-input=false", "-no-color"], { cwd: work, env: _tofuEnv(path.join(dir, "cli"), cliConfig, NO_NETWORK) });
    const out = (r.stdout + r.stderr).replace(/\s+/g, " "); // tofu wraps its messages at 78 columns
    assert.equal(r.code, 1, out);
    assert.match(out, /Failed to query available provider packages/, out);
    assert.match(out, /Could not retrieve the list of available versions for provider pulumi-dns-account\/dnsaccount: provider registry\.opentofu\.org\/pulumi-dns-account\/dnsaccount was not found in any of the search locations/, out);
    assert.ok(out.includes(` - ${mirror}`), `the mirror's folder is the one search location: ${out}`);
  });
});
