import assert from "node:assert/strict";
import { execFile, execFileSync } from "node:child_process";
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { type Emulator, startEmulator } from "../../emulator";
import { type Client, createClient } from "../../sdk";
import { _assertNoSecrets, _repoRoot, _withLowerCase } from "../support/helpers";
import { _nodelessProject, _pluginTarball } from "../support/home-network-program";
import { _installedProgram } from "../support/program";
import { _dynamicMissing, _engineMissing, _engineVersion, _failWithout, _grpcCalls, type PulumiProject, _nodeProgramProject, _summaryCounts } from "../support/pulumi-cli";
import { type FencedBlock, fencedBlocks } from "../support/readme-blocks";
import { _dohSecrets } from "../support/secrets";
import { _pythonMissing, _pythonVenv, _sdkWheel } from "../support/python-venv";

const run = promisify(execFile);
const ROOT = _repoRoot();
const OVERVIEW = "docs/_index.md";
const API_KEY = "key-ENGINE-OVERVIEW-6e1d94a2";
const VERSION = (JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string }).version;
/** The Maven local repository of the Java tests (test/engine/java-program.test.ts, test/package/sdks.test.ts). */
const M2 = path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), ".cache"), "pulumi-dns-account", "m2");
/** The tools Debian's `mvn` launcher script runs besides `java` (as test/engine/java-program.test.ts has them). */
const MVN_SCRIPT_TOOLS = ["uname", "ls", "expr", "dirname", "tr"];
/** Why the C# block is not run: the reason readme-blocks.test.ts gives for it too. */
const CSHARP_NOT_RUN = "no .NET toolchain here: the names the block uses are checked against the schema in C#'s spelling by test/examples/readme-blocks.test.ts (sdks/dotnet is generated and checked for staleness)";

/**
 * The fenced blocks of the "## Example" section of docs/_index.md, read from the file when the suite is
 * declared: the programs run below are the page's text, not copies.
 */
function exampleBlocks(): FencedBlock[] {
  const text = readFileSync(path.join(ROOT, OVERVIEW), "utf8");
  const lines = text.split("\n");
  const start = lines.findIndex((l) => /^## Example\s*$/.test(l));
  assert.ok(start >= 0, `${OVERVIEW} has an "## Example" section`);
  const next = lines.findIndex((l, i) => i > start && /^## /.test(l));
  const end = next < 0 ? lines.length : next;
  return fencedBlocks(text, OVERVIEW).filter((b) => b.line > start && b.line <= end);
}

/** The folder of `command`'s real file (symlinks resolved), or undefined when it is not on PATH. */
function toolFolder(command: string): string | undefined {
  try {
    return path.dirname(realpathSync(execFileSync("/bin/sh", ["-c", `command -v ${command}`], { encoding: "utf8" }).trim()));
  } catch {
    return undefined;
  }
}

/** Seconds since `t0`. */
const since = (t0: number): string => ((Date.now() - t0) / 1000).toFixed(1);

/** Names and ids of an account's servers and devices. */
async function inventory(client: Client): Promise<{ servers: string[]; devices: string[] }> {
  return {
    servers: (await client.dnsServers.list()).map((s) => `${s.name}:${s.id}`).sort(),
    devices: (await client.devices.list()).map((d) => `${d.name}:${d.id}`).sort(),
  };
}

/**
 * Issue 33 §2, last bullet: "The overview's example in each language (docs/_index.md) runs as written."
 * Each block of the page's "## Example" section is taken from the file at test time and written, as it
 * is, into a project of its language, which the real `pulumi` (`npm run engine`) runs through that
 * language's host: `pulumi up`, `pulumi preview --expect-no-changes`, `pulumi destroy`, each checked at
 * the emulator (a DNS server "Home" with a block TTL of 60 s and the user rule `||ads.example^`, a device
 * "Laptop" of type MAC on it; the stack output `dohAddress` is that device's DNS-over-HTTPS address, the
 * one without its DoH password; destroy removes both and leaves the account as it was). The blocks name
 * no credentials, so they come from stack config: `dns-account:baseUrl` and the secret `dns-account:apiKey`.
 * - TypeScript: the dynamic resources of `pulumi-dns-account` installed from `npm pack` (_installedProgram),
 *   `runtime: nodejs`; Pulumi's Node.js host compiles index.ts.
 * - Python, Go, Java, YAML: the plugin from `npm run package:plugin`'s linux-amd64 tarball (one for all),
 *   installed with `pulumi plugin install --file`, on a PATH without Node.js (asserted). Python: a venv
 *   with `pulumi` at the engine's version and the wheel of sdks/python. Go: go.mod and go.sum of
 *   examples/go-home-network with sdks/go replaced by its absolute path. Java: the pom of
 *   examples/java-home-network with the block's main class, the SDK `mvn install`ed into the tests' own
 *   Maven repository, Maven offline under pulumi (as test/engine/java-program.test.ts).
 * - C#: not run (no .NET toolchain); the test says so and why.
 * The API key, the passphrase and the laptop's DoH password appear nowhere in what `pulumi` printed nor
 * in the state but as ciphertext.
 */
describe("engine: the overview's example (docs/_index.md) in each language, as written, by pulumi up", function () {
  this.timeout(2_400_000);
  const blocks = exampleBlocks();
  let emu: Emulator;
  let dashboard: Client;
  let root: string;
  let tarball: string;
  const projects: PulumiProject[] = [];
  const suiteStarted = Date.now();

  before(async function () {
    _failWithout(_engineMissing("nodejs"));
    root = mkdtempSync(path.join(os.tmpdir(), "dns-account-engine-overview-"));
    const t0 = Date.now();
    tarball = await _pluginTarball(root);
    console.log(`      plugin tarball in ${since(t0)} s`);
    emu = await startEmulator();
    emu.addApiKey("user@example.com", API_KEY);
    dashboard = createClient({ baseUrl: emu.url, apiKey: API_KEY });
  });

  after(async () => {
    await dashboard?.close();
    await emu?.close();
    for (const p of projects) p.remove();
    if (root) rmSync(root, { recursive: true, force: true });
    console.log(`      the overview's examples in ${since(suiteStarted)} s in all`);
  });

  /** The section's one block of `lang`. */
  const block = (lang: string): FencedBlock => {
    const found = blocks.filter((b) => b.lang === lang);
    assert.equal(found.length, 1, `one \`\`\`${lang} block in ${OVERVIEW}'s "## Example" section`);
    return found[0]!;
  };
  /** Where the block is, for messages. */
  const where = (b: FencedBlock): string => `${b.file} line ${b.line} (\`\`\`${b.lang})`;

  /**
   * The example's life in `project` (its Pulumi.yaml and program written): the plugin installed when
   * `plugin` is set, the stack with its credentials in config, up / preview --expect-no-changes /
   * destroy, each checked at the emulator.
   */
  async function life(project: PulumiProject, b: FencedBlock, options: { plugin: boolean }): Promise<void> {
    const p = project;
    const grpcLog = path.join(path.dirname(p.dir), "grpc.jsonl");
    p.env.PULUMI_DEBUG_GRPC = grpcLog;
    const pulumi = async (...args: string[]): Promise<string> => {
      try {
        return await p.pulumi(...args);
      } catch (err) {
        (err as Error).message = `${where(b)} as written, pulumi ${args[0]}: ${(err as Error).message}`;
        throw err;
      }
    };
    if (options.plugin) await pulumi("plugin", "install", "resource", "dns-account", VERSION, "--file", tarball);
    await pulumi("stack", "init", "dev");
    await pulumi("config", "set", "dns-account:baseUrl", emu.url);
    await pulumi("config", "set", "--secret", "dns-account:apiKey", API_KEY);
    const before = await inventory(dashboard);
    const serversBefore = new Set((await dashboard.dnsServers.list()).map((s) => s.id));
    const devicesBefore = new Set((await dashboard.devices.list()).map((d) => d.id));
    const logs: string[] = [];
    const t0 = Date.now();

    // up: the server with its TTL and rule, the laptop on it.
    const up = await pulumi("up", "--yes", "--skip-preview");
    logs.push(up);
    assert.deepEqual(_summaryCounts(up), { create: 3 }, `the stack, the server and the laptop:\n${up}`);
    const servers = (await dashboard.dnsServers.list()).filter((s) => !serversBefore.has(s.id));
    assert.deepEqual(servers.map((s) => s.name), ["Home"], "up made one DNS server, Home");
    const server = await dashboard.dnsServers.get(servers[0]!.id);
    assert.equal(server.settings.block_ttl_seconds, 60);
    assert.deepEqual(server.settings.user_rules_settings?.rules, ["||ads.example^"]);
    const devices = (await dashboard.devices.list()).filter((d) => !devicesBefore.has(d.id));
    assert.deepEqual(devices.map((d) => d.name), ["Laptop"], "up made one device, Laptop");
    const device = await dashboard.devices.get(devices[0]!.id);
    assert.equal(device.device_type, "MAC");
    assert.equal(device.dns_server_id, server.id, "the laptop is on Home");

    // dohAddress: the laptop's DNS-over-HTTPS address as the service gives it (not the one with the DoH password).
    const outputs = JSON.parse(await pulumi("stack", "output", "--json")) as Record<string, unknown>;
    const addresses = device.dns_addresses as Record<string, unknown>;
    assert.deepEqual(outputs, { dohAddress: addresses.dns_over_https_url }, "dohAddress is the laptop's DoH address");
    assert.match(String(outputs.dohAddress), /^https:\/\/[0-9a-f]+\.dns\./);
    assert.match(up, /Outputs:[\s\S]*dohAddress/, "up prints the output");

    if (options.plugin) {
      const info = _grpcCalls(grpcLog).find((c) => c.method === "/pulumirpc.ResourceProvider/GetPluginInfo" && c.response.version);
      assert.equal(info?.response.version, VERSION, "the engine ran the plugin installed from the tarball");
    }

    const preview = await pulumi("preview", "--expect-no-changes");
    logs.push(preview);
    assert.deepEqual(_summaryCounts(preview), { same: 3 }, preview);

    const state = await pulumi("stack", "export");
    assert.match(state, /"ciphertext"/, "the API key is in the state as ciphertext");
    const secrets = _withLowerCase([API_KEY, p.env.PULUMI_CONFIG_PASSPHRASE!, ..._dohSecrets(device.dns_addresses as Record<string, unknown>)]);

    const destroy = await pulumi("destroy", "--yes", "--skip-preview");
    logs.push(destroy);
    assert.deepEqual(_summaryCounts(destroy), { delete: 3 }, destroy);
    await assert.rejects(dashboard.devices.get(device.id), (e: { status?: number }) => e.status === 404);
    await assert.rejects(dashboard.dnsServers.get(server.id), (e: { status?: number }) => e.status === 404);
    assert.deepEqual(await inventory(dashboard), before, "destroy leaves the account as it was");
    _assertNoSecrets(logs.join("\n"), secrets);
    _assertNoSecrets(state + (await pulumi("stack", "export")), secrets);
    console.log(`      up, preview and destroy in ${since(t0)} s`);
  }

  it(`the "## Example" section holds one block per language: TypeScript, Python, Go, C#, Java, YAML`, () => {
    assert.deepEqual(
      blocks.map((b) => b.lang),
      ["typescript", "python", "go", "csharp", "java", "yaml"],
      `a block added to (or taken from) ${OVERVIEW}'s example needs a test here`,
    );
  });

  it("TypeScript: the dynamic resources of the npm pack install, runtime nodejs", async () => {
    _failWithout(_dynamicMissing());
    const b = block("typescript");
    const installed = await _installedProgram();
    const project = _nodeProgramProject("dns-account-engine-overview-ts-", installed, {
      "Pulumi.yaml": "name: overview-typescript\nruntime: nodejs\n",
      "index.ts": b.text,
    });
    projects.push(project);
    await life(project, b, { plugin: false });
  });

  it("Python: the generated SDK in a venv, the tarball plugin, runtime python, no Node.js", async () => {
    _failWithout(_engineMissing("python"));
    _failWithout(_pythonMissing());
    const b = block("python");
    const t0 = Date.now();
    const venv = await _pythonVenv(path.join(root, "venv"));
    const wheel = await _sdkWheel(venv, path.join(root, "wheels"));
    await venv.pip("install", `pulumi==${_engineVersion()}`, wheel);
    console.log(`      venv with pulumi ${_engineVersion()} and the SDK wheel in ${since(t0)} s`);
    const project = await _nodelessProject("dns-account-engine-overview-python-", [venv.bin], projects);
    project.env.VIRTUAL_ENV = venv.dir;
    writeFileSync(path.join(project.dir, "Pulumi.yaml"), "name: overview-python\nruntime: python\n");
    writeFileSync(path.join(project.dir, "__main__.py"), b.text);
    await life(project, b, { plugin: true });
  });

  it("Go: sdks/go, the Go host builds it, the tarball plugin, no Node.js", async () => {
    _failWithout(_engineMissing("go"));
    const goBin = toolFolder("go");
    _failWithout(goBin ? undefined : "no go on PATH (the Go language host builds the program with it)");
    const b = block("go");
    const project = await _nodelessProject("dns-account-engine-overview-go-", [goBin!], projects);
    writeFileSync(path.join(project.dir, "Pulumi.yaml"), "name: overview-go\nruntime: go\n");
    writeFileSync(path.join(project.dir, "main.go"), b.text);
    // The module files of examples/go-home-network (the same two requirements, every checksum), with
    // sdks/go by its absolute path; -mod=readonly: they must be enough as they are.
    for (const f of ["go.mod", "go.sum"]) copyFileSync(path.join(ROOT, "examples", "go-home-network", f), path.join(project.dir, f));
    await run("go", ["mod", "edit", "-module=overview", `-replace=github.com/pulumi-dns-account/pulumi-dns-account/sdks/go=${path.join(ROOT, "sdks", "go")}`], { cwd: project.dir });
    project.env.GOFLAGS = "-mod=readonly -buildvcs=false";
    await life(project, b, { plugin: true });
  });

  it("YAML: the tarball plugin, runtime yaml, no Node.js", async () => {
    _failWithout(_engineMissing("yaml"));
    const b = block("yaml");
    const project = await _nodelessProject("dns-account-engine-overview-yaml-", [], projects);
    writeFileSync(path.join(project.dir, "Pulumi.yaml"), `name: overview-yaml\nruntime: yaml\n${b.text}`);
    await life(project, b, { plugin: true });
  });

  it(`C#: not run (${CSHARP_NOT_RUN})`, function () {
    assert.equal(block("csharp").lang, "csharp");
    console.log(`      skipped: ${CSHARP_NOT_RUN}`);
    this.skip();
  });

  it("Java: sdks/java by Maven (offline under pulumi), the tarball plugin, runtime java, no Node.js", async function () {
    _failWithout(_engineMissing("java"));
    const javaBin = toolFolder("java");
    const mavenBin = toolFolder("mvn");
    _failWithout(javaBin ? undefined : "no java on PATH (the Java language host runs the program with Maven and Java)");
    _failWithout(mavenBin ? undefined : "no mvn on PATH (the Java language host runs the program with `mvn compile exec:java`)");
    assert.doesNotMatch(M2, /\s/, "the Maven repository's path has no spaces (.mvn/maven.config splits on them)");
    const b = block("java");
    const pkg = /^package ([\w.]+);$/m.exec(b.text)?.[1];
    const cls = /^public class (\w+)/m.exec(b.text)?.[1];
    assert.ok(pkg && cls, `${where(b)} names its package and public class`);
    const userM2Sdk = path.join(os.homedir(), ".m2", "repository", "io", "github", "pulumi-dns-account");
    const userM2SdkBefore = existsSync(userM2Sdk);
    // Maven's launcher script runs a few POSIX tools that live in /usr/bin beside node: a folder of their own.
    const tools = path.join(root, "tools");
    mkdirSync(tools);
    for (const tool of MVN_SCRIPT_TOOLS) {
      const dir = toolFolder(tool);
      assert.ok(dir, `${tool} is on PATH (Maven's launcher script runs it)`);
      symlinkSync(path.join(dir, tool), path.join(tools, tool));
    }
    const t0 = Date.now();
    const mvnEnv = { ...process.env, MAVEN_OPTS: "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC" };
    const mvn = (cwd: string, ...args: string[]): Promise<{ stdout: string; stderr: string }> =>
      run("mvn", ["--batch-mode", "--no-transfer-progress", `-Dmaven.repo.local=${M2}`, ...args], { cwd, env: mvnEnv, maxBuffer: 64 * 1024 * 1024 });
    // The SDK as the docs say (`mvn install` of sdks/java), from a copy: Maven writes target/ beside pom.xml.
    const sdk = path.join(root, "sdk-java");
    cpSync(path.join(ROOT, "sdks", "java"), sdk, { recursive: true });
    await mvn(sdk, "--quiet", "install");
    assert.ok(existsSync(path.join(M2, "io", "github", "pulumi-dns-account", "dns-account", VERSION, `dns-account-${VERSION}.jar`)), "mvn install put the SDK's jar into M2");

    const project = await _nodelessProject("dns-account-engine-overview-java-", [...new Set([mavenBin!, javaBin!, tools])], projects);
    writeFileSync(path.join(project.dir, "Pulumi.yaml"), "name: overview-java\nruntime: java\n");
    // examples/java-home-network's Maven build (every plugin pinned, so `mvn -o` works), with the block's class as main.
    const examplePom = readFileSync(path.join(ROOT, "examples", "java-home-network", "pom.xml"), "utf8");
    const pom = examplePom.replace("<artifactId>java-home-network</artifactId>", "<artifactId>overview</artifactId>").replace("<mainClass>homenetwork.App</mainClass>", `<mainClass>${pkg}.${cls}</mainClass>`);
    assert.ok(pom.includes("<artifactId>overview</artifactId>") && pom.includes(`<mainClass>${pkg}.${cls}</mainClass>`), "the example's pom names its artifact and main class as expected");
    writeFileSync(path.join(project.dir, "pom.xml"), pom);
    cpSync(path.join(ROOT, "examples", "java-home-network", ".mvn"), path.join(project.dir, ".mvn"), { recursive: true });
    const source = path.join(project.dir, "src", "main", "java", ...pkg.split("."));
    mkdirSync(source, { recursive: true });
    writeFileSync(path.join(source, `${cls}.java`), b.text);
    // The dependencies into M2, online, by the command the language host runs first (the bootstrap
    // listing the plugins the classpath names); every Maven run under pulumi is then --offline.
    const packages = await mvn(project.dir, "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-Dorg.slf4j.simpleLogger.logFile=System.err", "compile", "exec:java", "-DmainClass=com.pulumi.bootstrap.internal.Main", "-DmainArgs=packages");
    const listed = packages.stdout.replace(/\u001b\[[0-9;]*m/g, "").trim();
    assert.ok(Array.isArray(JSON.parse(listed)), `the bootstrap printed a JSON list:\n${listed}`);
    writeFileSync(path.join(project.dir, ".mvn", "maven.config"), `--offline\n-Dmaven.repo.local=${M2}\n`);
    console.log(`      mvn install of the SDK and the program's first compile in ${since(t0)} s`);
    await life(project, b, { plugin: true });
    assert.equal(existsSync(userM2Sdk), userM2SdkBefore, "nothing of the SDK went into the user's ~/.m2");
  });
});
