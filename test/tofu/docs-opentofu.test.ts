import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { type Emulator, startEmulator } from "../../emulator";
import { type Client, createClient } from "../../sdk";
import { _assertNoSecrets, _closeAll, _refreshTokenAlive, _repoRoot, _withLowerCase } from "../support/helpers";
import { _useTempDirs } from "../support/temp";
import { _failWithoutTofu, _tofuBin, _tofuMissing } from "../support/tofu-cli";
import { type DocHclBlock, _docHclBlocks, _importedIds, _variables } from "../support/tofu-docs";
import { _sharedTofuRelease } from "../support/tofu-face";
import { REQUIRED_PROVIDERS, TOFU_SOURCE, type TofuProject, _tofuProject } from "../support/tofu-project";

const run = promisify(execFile);
const PAGE = "docs/opentofu.md";
const SERVICE = "https://api.adguard-dns.io";
const VERSION = (JSON.parse(readFileSync(path.join(_repoRoot(), "package.json"), "utf8")) as { version: string }).version;

/** The two accounts of the emulator: the first is the one the environment's key and the docs' login use. */
const HOME = { username: "user@example.com", password: "pw-DOCS-Home-3e8a41f0", apiKey: "key-DOCS-HOME-6b02d9c4" };
const OFFICE = { username: "office@example.com", password: "pw-DOCS-Office-91c7e2aa", apiKey: "key-DOCS-OFFICE-0f5e7d13" };
const PASSPHRASE = "passphrase-DOCS-5a9d1c7e44";
const SECRETS = _withLowerCase([HOME.password, HOME.apiKey, OFFICE.password, OFFICE.apiKey, PASSPHRASE]);

/** What the docs' variables get (TF_VAR_…), by name: a variable the page uses and this map lacks fails the test. */
const VARIABLES: Record<string, string> = {
  dnsaccount_api_key: HOME.apiKey,
  home_api_key: HOME.apiKey,
  office_api_key: OFFICE.apiKey,
  dnsaccount_username: HOME.username,
  dnsaccount_password: HOME.password,
  state_passphrase: PASSPHRASE,
};

/** `tofu show -json`'s managed resources: address → values (sensitive ones included). */
type Shown = Map<string, { type: string; values: Record<string, unknown> }>;

/**
 * Issue 34's "Done when": docs/opentofu.md, for OpenTofu users, with every `hcl` block run by the real
 * `tofu` as written (the provider is the release zip, installed by `tofu init` from its filesystem mirror as
 * users install it; the npm bin only for the page's `dev_overrides` block). The page is read
 * when the suite is declared, so a new block gets its test:
 * - a CLI configuration (`provider_installation`): the `dev_overrides` one starts the provider from the
 *   folder it names (a plan reads a data source); the `filesystem_mirror` one installs, with `tofu init`,
 *   the release from the mirror `npm run package:tofu` writes (linux-amd64), and the lock file records
 *   it; the page's `tofu providers lock` records its checksums. Only the reader's path (`/home/you/…`) is replaced.
 * - a `# fragment`: validated inside a minimal configuration (required_providers, the variables it uses).
 * - a configuration: against a fresh emulator (seeded with the objects its `import {}` blocks name),
 *   validate, apply, check the service (every server, device, address and token of the state exists
 *   there), a plan with no changes (`-detailed-exitcode` 0), destroy, check the service again (gone, or
 *   kept where the state said `retain_on_destroy`; no live refresh token left). The service's address is
 *   the emulator's; blocks without `required_providers` get the first configuration's, and blocks
 *   without a provider block `provider "dnsaccount" {}` with the API key in the environment, as the page
 *   says. The token rotation block is also rotated by its keepers and by `-replace`, new before old; the
 *   state encryption block's state file must hold no token.
 * - each `tofu import ADDRESS ID` of the page's prose: the configuration of the import block that names
 *   the same, without that block, imported from the command line, then the same cycle.
 * Everything tofu printed, and every state file, is searched for the API keys, passwords and passphrase
 * (lower case too).
 */
describe("docs/opentofu.md: every hcl block under the real tofu", function () {
  this.timeout(900_000);
  const tmp = _useTempDirs();
  const markdown = readFileSync(path.join(_repoRoot(), PAGE), "utf8");
  const blocks = _docHclBlocks(markdown, PAGE);
  /** The page's `tofu import ADDRESS ID` commands (in prose), each run on the configuration whose import block says the same. */
  const commandImports = [...markdown.matchAll(/`tofu import (dnsaccount_\w+)\.(\w+) ([^`\s]+)`/g)].map((m) => ({ type: m[1]!, name: m[2]!, id: m[3]! }));
  const printed: string[] = [];

  before(() => _failWithoutTofu(_tofuMissing()));

  it("the page has the blocks this suite runs: CLI configurations, fragments, configurations, rotation, state encryption, imports of each resource", () => {
    const kinds = blocks.map((b) => b.kind);
    assert.equal(kinds.filter((k) => k === "cli-config").length, 2, "the filesystem_mirror and dev_overrides CLI configurations");
    assert.ok(kinds.includes("fragment"));
    const configs = blocks.filter((b) => b.kind === "configuration").map((b) => b.text);
    assert.ok(configs.some((t) => /create_before_destroy\s*=\s*true/.test(t) && t.includes("dnsaccount_token")), "a rotation with create_before_destroy");
    assert.ok(configs.some((t) => /\bencryption\s*\{/.test(t)), "state encryption");
    const imported = configs.flatMap((t) => _importedIds(t).map((i) => i.type)).sort();
    assert.deepEqual(imported, ["dnsaccount_dedicated_ipv4", "dnsaccount_device", "dnsaccount_dns_server"]);
    for (const b of blocks) {
      const { used, declared } = _variables(b.text);
      for (const v of used) assert.ok(v in VARIABLES || declared.includes(v), `${PAGE} line ${b.line}: var.${v} has no value in this test`);
    }
  });

  after(() => _assertNoSecrets(printed.join("\n"), SECRETS));

  const record = (out: string): string => {
    printed.push(out);
    return out;
  };

  for (const block of blocks) {
    const title = `${block.heading} (line ${block.line}): ${block.kind}`;
    if (block.kind === "cli-config") it(`${title}: ${/dev_overrides/.test(block.text) ? "dev_overrides starts the provider from the folder it names" : "the filesystem mirror installs the release zip"}`, () => cliConfig(block));
    else if (block.kind === "fragment") it(`${title}: valid inside a minimal configuration`, () => fragment(block));
    else it(`${title}: validate, apply, a plan with no changes, destroy; checked at the service`, () => configuration(block));
  }

  it("the page shows the command-line import too", () => assert.ok(commandImports.length > 0));
  for (const c of commandImports) {
    const block = blocks.find((b) => b.kind === "configuration" && _importedIds(b.text).some((i) => i.type === c.type && i.id === c.id) && b.text.includes(`resource "${c.type}" "${c.name}"`));
    it(`\`tofu import ${c.type}.${c.name} ${c.id}\`: the configuration of the page's import block, without it, imported from the command line`, () => {
      assert.ok(block, `a configuration of the page declares ${c.type}.${c.name} with an import block of id ${c.id}`);
      return configuration(block, { type: c.type, address: `${c.type}.${c.name}`, id: c.id });
    });
  }

  /** A project whose CLI configuration is `block` (the reader's path replaced by `folder(project)`). */
  const withCliConfig = (block: DocHclBlock, project: TofuProject, folder: string): void => {
    const paths = block.text.match(/"\/home\/you\/[^"]*"/g) ?? [];
    assert.equal(paths.length, 1, `${PAGE} line ${block.line}: one /home/you/… path to replace`);
    writeFileSync(project.env.TF_CLI_CONFIG_FILE!, block.text.replace(paths[0]!, JSON.stringify(folder)));
  };

  async function cliConfig(block: DocHclBlock): Promise<void> {
    const emu = await startEmulator({ users: [HOME], apiKeys: [{ key: HOME.apiKey, username: HOME.username }] });
    try {
      const root = tmp("dns-account-tofu-docs-cli-");
      // The npm bin's wrapper in root/plugins, which the page's dev_overrides block names; the
      // filesystem_mirror block replaces the CLI configuration, and `tofu init` installs the release.
      const project = _tofuProject(root, { DNS_ACCOUNT_API_KEY: HOME.apiKey, DNS_ACCOUNT_BASE_URL: emu.url });
      project.write(`provider "dnsaccount" {}\n\ndata "dnsaccount_account_limits" "account" {}\n\noutput "devices" {\n  value = data.dnsaccount_account_limits.account.devices.limit\n}\n`);
      if (/dev_overrides/.test(block.text)) {
        withCliConfig(block, project, path.join(root, "plugins"));
        const planned = record(await project.ok(["plan"]));
        assert.match(planned, /Provider development overrides are in effect/);
        assert.ok(planned.includes(`pulumi-dns-account/dnsaccount in ${path.join(root, "plugins")}`), "the override names the folder");
        assert.match(planned, /devices\s+=\s+\d+/, "the data source was read: the provider ran");
        return;
      }
      // The release as `npm run package:tofu` makes it, shared by the run's tofu suites: linux-amd64 only.
      const [os, arch] = ["linux", "amd64"];
      const { mirror } = await _sharedTofuRelease();
      withCliConfig(block, project, mirror);
      const init = record(await project.ok(["init"]));
      assert.ok(init.includes(`Installed pulumi-dns-account/dnsaccount v${VERSION} (unauthenticated)`), "installed from the mirror");
      const lock = readFileSync(path.join(project.dir, ".terraform.lock.hcl"), "utf8");
      assert.match(lock, new RegExp(`provider "${TOFU_SOURCE}" \\{\\s*version\\s*=\\s*"${VERSION}"`));
      assert.match(lock, /"h1:[A-Za-z0-9+/=]+"/);
      // The page's `tofu providers lock -fs-mirror=… -platform=…` (the tests' mirror has this platform only).
      const locked = record(await project.ok(["providers", "lock", `-fs-mirror=${mirror}`, `-platform=${os}_${arch}`]));
      assert.match(locked, new RegExp(`Obtained pulumi-dns-account/dnsaccount checksums for ${os}_${arch}`), locked);
      record(await project.ok(["validate"]));
      const planned = record(await project.ok(["plan"]));
      assert.doesNotMatch(planned, /development overrides/);
      assert.match(planned, /devices\s+=\s+\d+/, "the data source was read: the installed provider ran");
    } finally {
      await emu.close();
    }
  }

  async function fragment(block: DocHclBlock): Promise<void> {
    const project = await _tofuProject(tmp("dns-account-tofu-docs-fragment-"), {}, { install: "mirror" });
    const { used, declared } = _variables(block.text);
    const variables = used.filter((v) => !declared.includes(v)).map((v) => `variable "${v}" {\n  type      = string\n  sensitive = true\n}\n`);
    project.write(`${variables.join("\n")}\n${block.text}`);
    const out = record(await project.ok(["validate"]));
    assert.match(out, /The configuration is valid/);
  }

  /** The managed resources `tofu show -json` prints (it decrypts an encrypted state). */
  const shown = async (project: TofuProject): Promise<Shown> => {
    const r = await project.tofu(["show", "-json"]);
    assert.equal(r.code, 0, r.stderr);
    const doc = JSON.parse(r.stdout) as { values?: { root_module?: { resources?: { address: string; mode: string; type: string; values: Record<string, unknown> }[] } } };
    const out: Shown = new Map();
    for (const res of doc.values?.root_module?.resources ?? []) if (res.mode === "managed") out.set(res.address, { type: res.type, values: res.values });
    return out;
  };

  /** The text of every state file of the project (the state and its backup). */
  const stateFiles = (project: TofuProject): string =>
    readdirSync(project.dir)
      .filter((f) => f.startsWith("terraform.tfstate"))
      .map((f) => readFileSync(path.join(project.dir, f), "utf8"))
      .join("\n");

  async function configuration(block: DocHclBlock, byCommand?: { type: string; address: string; id: string }): Promise<void> {
    const imports = _importedIds(block.text);
    const seed = {
      version: 1 as const,
      username: HOME.username,
      dns_servers: imports.filter((i) => i.type === "dnsaccount_dns_server").map((i) => ({ id: i.id, name: "Made in the dashboard" })),
      devices: imports.filter((i) => i.type === "dnsaccount_device").map((i) => ({ id: i.id, name: "Made in the dashboard", device_type: "UNKNOWN" as const })),
      dedicated_ipv4: imports.filter((i) => i.type === "dnsaccount_dedicated_ipv4").map((i) => ({ ip: i.id })),
    };
    const emu: Emulator = await startEmulator({
      users: [HOME, OFFICE],
      apiKeys: [
        { key: HOME.apiKey, username: HOME.username },
        { key: OFFICE.apiKey, username: OFFICE.username },
      ],
      seed,
    });
    const clients: Client[] = [HOME, OFFICE].map((a) => createClient({ baseUrl: emu.url, apiKey: a.apiKey }));
    let project: TofuProject | undefined;
    try {
      const asWritten = block.text.split(SERVICE).join(emu.url);
      // The command-line form: the import block left out, `tofu import` run before the apply.
      const text = byCommand ? asWritten.replace(/import\s*\{[^}]*\}\s*/g, "") : asWritten;
      const ownCredentials = /provider\s+"dnsaccount"\s*\{[^}]*\b(api_key|password|refresh_token)\s*=/.test(text);
      const vars = Object.fromEntries(_variables(text).used.map((v) => [`TF_VAR_${v}`, VARIABLES[v]!]));
      project = await _tofuProject(tmp("dns-account-tofu-docs-config-"), { ...(ownCredentials ? {} : { DNS_ACCOUNT_API_KEY: HOME.apiKey, DNS_ACCOUNT_BASE_URL: emu.url }), ...vars }, { install: "mirror" });
      const p = project;
      const main = `${/required_providers/.test(text) ? "" : REQUIRED_PROVIDERS}${/provider\s+"dnsaccount"/.test(text) ? "" : 'provider "dnsaccount" {}\n'}\n${text}`;
      const write = (t: string) => writeFileSync(path.join(p.dir, "main.tf"), t);
      write(main);
      const ok = async (...args: string[]) => record(await p.ok(args));
      const noChanges = async (when: string) => {
        const r = await p.tofu(["plan", "-detailed-exitcode"]);
        record(r.stdout + r.stderr);
        assert.equal(r.code, 0, `${when}: the plan has changes\n${r.stdout}${r.stderr}`);
      };

      assert.match(await ok("validate"), /The configuration is valid/);
      if (byCommand) {
        // Flags before the address: _tofuProject's `tofu` appends its own after the arguments, which `tofu import` refuses.
        const r = await run(path.join(_tofuBin(), "tofu"), ["import", "-no-color", "-input=false", byCommand.address, byCommand.id], { cwd: p.dir, env: p.env }).catch(
          (e: { stdout?: string; stderr?: string; message: string }) => assert.fail(`tofu import failed\n${e.stdout ?? ""}${e.stderr ?? e.message}`),
        );
        assert.match(record(r.stdout + r.stderr), /Import successful!/);
      }
      const applied = await ok("apply", "-auto-approve");
      assert.match(applied, /Apply complete!/);
      if (imports.length > 0 && !byCommand) assert.match(applied, new RegExp(`${imports.length} imported`));
      let state = await shown(p);
      assert.ok(state.size > 0 || /^data /m.test(text), "the apply made something");
      await existsAtService(state, clients);
      for (const i of imports) assert.ok([...state.values()].some((r) => r.type === i.type && String(r.values.id) === i.id), `the state holds the imported ${i.type} ${i.id}`);
      const tokens = [...state.values()].filter((r) => r.type === "dnsaccount_token");
      if (tokens.length > 0) assert.equal(emu.liveRefreshTokens(HOME.username), tokens.length, "one live refresh token per Token: the provider's own login was revoked when it exited");

      if (/\bencryption\s*\{/.test(text)) {
        const file = readFileSync(path.join(p.dir, "terraform.tfstate"), "utf8");
        assert.ok("encrypted_data" in (JSON.parse(file) as object), "the state file is encrypted");
        assert.ok(tokens.length > 0);
        const held = tokens.flatMap((t) => [String(t.values.refresh_token), String(t.values.access_token)]);
        assert.ok(held.every((s) => s.length > 16), "tofu show -json decrypts the tokens");
        _assertNoSecrets(stateFiles(p), _withLowerCase(held));
      }

      const outputs = [...text.matchAll(/^output\s+"(\w+)"/gm)].map((m) => m[1]!);
      if (outputs.length > 0) {
        const r = await p.tofu(["output", "-json"]);
        assert.equal(r.code, 0, r.stderr);
        const values = JSON.parse(r.stdout) as Record<string, { value: unknown; sensitive: boolean }>;
        for (const o of outputs) assert.ok(values[o] !== undefined && values[o].value !== null && values[o].value !== "", `output ${o} has a value`);
      }
      await noChanges("after apply");

      if (/create_before_destroy\s*=\s*true/.test(text) && tokens.length > 0) {
        // As the page says: a change of keepers, then `tofu apply -replace=<the token>`.
        const token = [...state.entries()].find(([, r]) => r.type === "dnsaccount_token")![0];
        const rotated = main.replace(/(keepers\s*=\s*\{[^}]*rotated\s*=\s*)"[^"]*"/, '$1"rotated-by-the-docs-test"');
        assert.notEqual(rotated, main, "the token's keepers to change");
        for (const how of ["keepers", "-replace"] as const) {
          const before = String(state.get(token)!.values.refresh_token);
          if (how === "keepers") write(rotated);
          const out = await ok("apply", "-auto-approve", ...(how === "-replace" ? [`-replace=${token}`] : []));
          const created = out.search(new RegExp(`${token.replace(".", "\\.")}: Creating`));
          const destroyed = out.search(new RegExp(`${token.replace(".", "\\.")} \\(deposed object \\w+\\): Destroying`));
          assert.ok(created >= 0 && destroyed > created, `${how}: the new token is made before the old one is destroyed (create_before_destroy)\n${out}`);
          state = await shown(p);
          const after = String(state.get(token)!.values.refresh_token);
          assert.notEqual(after, before, `${how}: a new token`);
          assert.equal(await _refreshTokenAlive(emu.url, before), false, `${how}: the old refresh token is revoked`);
          assert.equal(await _refreshTokenAlive(emu.url, after), true);
          assert.equal(emu.liveRefreshTokens(HOME.username), 1, `${how}: one live refresh token, the new one`);
          for (const [address, r] of state) {
            const credentials = r.values.credentials as { refresh_token?: string } | null | undefined;
            if (credentials) assert.equal(credentials.refresh_token, after, `${how}: ${address} took the new refresh token`);
          }
          await existsAtService(state, clients);
          await noChanges(`after the rotation by ${how}`);
        }
      }

      const destroyed = await ok("destroy", "-auto-approve");
      assert.match(destroyed, /Destroy complete!/);
      await goneAtService(state, clients);
      assert.equal(emu.liveRefreshTokens(), 0, "no live refresh token is left at the service");
      _assertNoSecrets(stateFiles(p), SECRETS);
    } finally {
      await _closeAll(
        () => {
          if (project) _assertNoSecrets(stateFiles(project), SECRETS);
        },
        ...clients.map((c) => () => c.close()),
        () => emu.close(),
      );
    }
  }

  /** Every server, device and address of the state exists at the service, in one of the accounts. */
  async function existsAtService(state: Shown, clients: Client[]): Promise<void> {
    const servers = (await Promise.all(clients.map((c) => c.dnsServers.list()))).flat();
    const devices = (await Promise.all(clients.map((c) => c.devices.list()))).flat();
    const addresses = (await Promise.all(clients.map((c) => c.dedicatedIpv4.list()))).flat();
    for (const [address, r] of state) {
      if (r.type === "dnsaccount_dns_server") {
        const s = servers.find((x) => x.id === r.values.server_id);
        assert.ok(s, `${address} exists at the service`);
        if (typeof r.values.name === "string") assert.equal(s.name, r.values.name);
      } else if (r.type === "dnsaccount_device") {
        const d = devices.find((x) => x.id === r.values.device_id);
        assert.ok(d, `${address} exists at the service`);
        assert.equal(d.dns_server_id, r.values.dns_server_id);
      } else if (r.type === "dnsaccount_dedicated_ipv4") {
        const a = addresses.find((x) => x.ip === r.values.ip);
        assert.ok(a, `${address} is allocated`);
        if (typeof r.values.device_id === "string") assert.equal(a.device_id, r.values.device_id, `${address} is linked`);
      } else {
        assert.equal(r.type, "dnsaccount_token", `a resource type this test checks: ${r.type}`);
      }
    }
  }

  /** After destroy: servers and devices gone (or kept where the state said so), addresses unlinked. */
  async function goneAtService(state: Shown, clients: Client[]): Promise<void> {
    const servers = (await Promise.all(clients.map((c) => c.dnsServers.list()))).flat();
    const devices = (await Promise.all(clients.map((c) => c.devices.list()))).flat();
    const addresses = (await Promise.all(clients.map((c) => c.dedicatedIpv4.list()))).flat();
    for (const [address, r] of state) {
      const kept = r.values.retain_on_destroy === true;
      if (r.type === "dnsaccount_dns_server") assert.equal(servers.some((x) => x.id === r.values.server_id), kept, `${address} ${kept ? "kept" : "deleted"}`);
      if (r.type === "dnsaccount_device") assert.equal(devices.some((x) => x.id === r.values.device_id), kept, `${address} ${kept ? "kept" : "deleted"}`);
      if (r.type === "dnsaccount_dedicated_ipv4") assert.ok(addresses.some((x) => x.ip === r.values.ip && !x.device_id), `${address} unlinked, still allocated`);
    }
  }
});
