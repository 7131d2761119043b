import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { _gitSnapshot } from "../support/git-snapshot";
import { fencedBlocks } from "../support/readme-blocks";
import { _cleanEnv, _repoRoot } from "../support/helpers";
import { _useTempDirs } from "../support/temp";
import { MEMBERS } from "./sdks/enum-members";
import { type ExampleLanguage, programsIn } from "./sdks/schema-examples";

const exec = promisify(execFile);
const root = _repoRoot();
const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { version: string };
const lock = JSON.parse(readFileSync(path.join(root, "package-lock.json"), "utf8")) as { packages: Record<string, { version: string }> };
/** The pulumi version of the engine (`npm run engine`): the Python SDK is tried with the same `pulumi`. */
const pulumiVersion = lock.packages["node_modules/@pulumi/pulumi"]!.version;
const LANGUAGES = ["nodejs", "python", "go", "dotnet", "java"] as const;
/** Downloads kept between runs, outside the clone (CI caches ~/.cache). */
const cache = path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), ".cache"), "pulumi-dns-account");

/** Runs a command; on failure the error carries its output, and the time it took is logged. */
async function run(file: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<string> {
  const started = Date.now();
  try {
    const { stdout } = await exec(file, args, { cwd: options.cwd ?? root, env: options.env ?? _cleanEnv(), maxBuffer: 64 * 1024 * 1024 });
    return stdout;
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${path.basename(file)} ${args.join(" ")} failed: ${e.message}\n${e.stdout ?? ""}\n${(e.stderr ?? "").slice(-4000)}`);
  } finally {
    const shown = args.slice(0, 3).map((a) => (a.length > 60 ? `${a.slice(0, 57)}...` : a));
    console.log(`      (${path.basename(file)} ${shown.join(" ")}: ${((Date.now() - started) / 1000).toFixed(1)} s)`);
  }
}

/** Why a tool cannot be used here, or undefined when it can. */
async function missing(file: string, args: string[]): Promise<string | undefined> {
  try {
    await exec(file, args, { env: _cleanEnv() });
    return undefined;
  } catch (err) {
    return `\`${file} ${args.join(" ")}\` failed: ${(err as Error).message.split("\n")[0]}`;
  }
}

/** Every file under dir, as sorted slash-separated paths. */
function files(dir: string, prefix = ""): string[] {
  return readdirSync(path.join(dir, prefix), { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? files(dir, path.posix.join(prefix, e.name)) : [path.posix.join(prefix, e.name)]))
    .sort();
}

/**
 * Issue 24: the SDKs in the user's own package manager. `npm run sdks` (scripts/gen-sdks, Pulumi's own
 * code generators as Go packages) writes sdks/{nodejs,python,go,dotnet,java} from
 * provider/schema/schema.json; they are committed, so `go get` and `pip install git+…#subdirectory=sdks/python`
 * work from the repository. This suite fails when they are stale against the schema or package.json's
 * version, and builds each one as its ecosystem does (.NET only where a `dotnet` is installed: these
 * machines have none). A toolchain that is missing makes its tests say skipped, with the reason.
 * The per-resource docs (docs/api-docs, Pulumi's docs generator) are held to the schema the same way, and
 * the schema's examples are checked in each SDK's own test: TypeScript type-checked, Python run under
 * mocks, Go and Java compiled (C# and YAML by name, in sdks-docs.test.ts). They add about 10 s here with
 * warm caches.
 */
describe("generated SDKs (sdks/)", function () {
  // A fresh machine compiles pulumi/pkg and downloads `pulumi` from PyPI: minutes, once; seconds after.
  this.timeout(1_800_000);
  const tmp = _useTempDirs();
  let work: string;
  let noGo: string | undefined;
  let noPython: string | undefined;
  let noMaven: string | undefined;
  let noDotnet: string | undefined;

  before(async () => {
    work = tmp("dns-account-sdks-");
    noGo = await missing("go", ["version"]);
    noPython = await missing("python3", ["-c", "import venv, ensurepip"]);
    noMaven = (await missing("javac", ["-version"])) ?? (await missing("mvn", ["-version"]));
    noDotnet = await missing("dotnet", ["--version"]);
  });

  it("are what `npm run sdks` writes from the schema now, byte for byte (not stale), and so are the per-resource docs in docs/api-docs", async function () {
    if (noGo) {
      console.log(`      skipped: the generator is a Go program and ${noGo}`);
      this.skip();
    }
    const bin = path.join(work, "gen-sdks");
    await run("go", ["build", "-trimpath", "-o", bin, "."], { cwd: path.join(root, "scripts", "gen-sdks") });
    const out = path.join(work, "generated");
    await run(bin, ["-root", root, "-out", out, "-docs", path.join(out, "docs")]);
    const committed = path.join(root, "sdks");
    // The SDKs, and the per-resource docs Pulumi's docs generator writes into docs/api-docs.
    const targets = [...LANGUAGES.map((lang) => ({ name: `sdks/${lang}`, want: path.join(out, lang), have: path.join(committed, lang) })), { name: "docs/api-docs", want: path.join(out, "docs"), have: path.join(root, "docs", "api-docs") }];
    for (const { name, want: wantDir, have: haveDir } of targets) {
      const want = files(wantDir);
      const have = existsSync(haveDir) ? files(haveDir) : [];
      const hint = `${name} is stale against provider/schema/schema.json or package.json: run \`npm run sdks\` and commit`;
      assert.deepEqual(have, want, `${hint} (files differ)`);
      const changed = want.filter((f) => !readFileSync(path.join(wantDir, f)).equals(readFileSync(path.join(haveDir, f))));
      assert.deepEqual(changed, [], `${hint} (contents differ)`);
    }
    // The version is package.json's, in each ecosystem's own manifest.
    assert.equal((JSON.parse(readFileSync(path.join(committed, "nodejs", "package.json"), "utf8")) as { version: string }).version, pkg.version);
    assert.match(readFileSync(path.join(committed, "python", "pyproject.toml"), "utf8"), new RegExp(`^\\s*version = "${pkg.version.replace(/\./g, "\\.")}"$`, "m"));
    assert.equal((JSON.parse(readFileSync(path.join(committed, "go", "dnsaccount", "pulumi-plugin.json"), "utf8")) as { version: string }).version, pkg.version);
    assert.match(readFileSync(path.join(committed, "dotnet", "Pulumi.DnsAccount.csproj"), "utf8"), new RegExp(`<Version>${pkg.version.replace(/\./g, "\\.")}</Version>`));
    assert.match(readFileSync(path.join(committed, "java", "pom.xml"), "utf8"), new RegExp(`<artifactId>dns-account</artifactId>\\s*<version>${pkg.version.replace(/\./g, "\\.")}</version>`));
  });

  it("TypeScript: sdks/nodejs compiles with tsc, and a program under Pulumi's mocks registers a DnsServer and a Device; the schema's TypeScript examples type-check against it", async () => {
    const out = path.join(work, "nodejs");
    const tsc = path.join(root, "node_modules", "typescript", "bin", "tsc");
    // The package's own tsconfig.json; @pulumi/pulumi and @types/node resolve from this repository's node_modules.
    await run(process.execPath, [tsc, "-p", path.join(root, "sdks", "nodejs", "tsconfig.json"), "--outDir", out]);
    for (const file of ["index.js", "index.d.ts", "device.js", "dnsServer.js", "types/input.d.ts"]) assert.ok(existsSync(path.join(out, file)), file);
    // As Pulumi's providers publish it: the compiled folder with package.json beside it (the SDK reads its version there).
    cpSync(path.join(root, "sdks", "nodejs", "package.json"), path.join(out, "package.json"));
    const program = path.join(work, "nodejs-mocks.js");
    writeFileSync(program, NODE_MOCKS);
    const stdout = await run(process.execPath, [program, out], { env: _cleanEnv({ NODE_PATH: path.join(root, "node_modules") }) });
    checkMocksReport(JSON.parse(stdout) as MocksReport);
    // The schema's TypeScript examples type-check against the compiled SDK as a user installs it: in
    // node_modules as @pulumi-dns-account/dns-account, beside @pulumi/pulumi, with Pulumi's template tsconfig.
    const examples = path.join(work, "ts-examples");
    mkdirSync(path.join(work, "node_modules", "@pulumi-dns-account"), { recursive: true });
    symlinkSync(out, path.join(work, "node_modules", "@pulumi-dns-account", "dns-account"), "dir");
    symlinkSync(path.join(root, "node_modules", "@pulumi"), path.join(work, "node_modules", "@pulumi"), "dir");
    const names = writeExamples(examples, "typescript", (id) => `${id}.ts`);
    // What `pulumi import --generate-code` writes in TypeScript type-checks too (its generator is Go).
    if (!noGo) {
      const code = (await generatedImportCode(work)).nodejs;
      checkImportCode("nodejs", code);
      writeFileSync(path.join(examples, "import-generated.ts"), code);
      names.push("import-generated.ts");
    }
    writeFileSync(
      path.join(examples, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: { strict: true, noEmit: true, target: "es2020", module: "commonjs", moduleResolution: "node", skipLibCheck: true, types: ["node"], typeRoots: [path.join(root, "node_modules", "@types")] },
        files: names,
      }),
    );
    await run(process.execPath, [tsc, "-p", path.join(examples, "tsconfig.json")]);
  });

  it("Go: sdks/go is a module of its own that builds with `go build ./...` and vets clean, and a program under Pulumi's mocks registers a DnsServer and a Device; the schema's Go examples compile", async function () {
    if (noGo) {
      console.log(`      skipped: ${noGo}`);
      this.skip();
    }
    const dir = path.join(root, "sdks", "go");
    const mod = readFileSync(path.join(dir, "go.mod"), "utf8");
    assert.match(mod, /^module github\.com\/pulumi-dns-account\/pulumi-dns-account\/sdks\/go$/m);
    // -mod=readonly: the committed go.mod and go.sum must be complete, as `go get` reads them.
    const env = _cleanEnv({ GOFLAGS: "-mod=readonly" });
    await run("go", ["build", "./..."], { cwd: dir, env });
    await run("go", ["vet", "./..."], { cwd: dir, env });
    // test/package/sdks/go-mocks: a module whose go.mod points the SDK's module at sdks/go.
    const stdout = await run("go", ["run", "."], { cwd: path.join(root, "test", "package", "sdks", "go-mocks"), env });
    checkMocksReport(JSON.parse(stdout) as MocksReport);
    // The overview's Go example (docs/_index.md) compiles and vets against the SDK as written: a module
    // like go-mocks (same requirements), with the SDK's module pointed at sdks/go.
    const exampleDir = path.join(work, "go-overview");
    mkdirSync(exampleDir);
    const mocksMod = path.join(root, "test", "package", "sdks", "go-mocks");
    writeFileSync(path.join(exampleDir, "go.mod"), readFileSync(path.join(mocksMod, "go.mod"), "utf8").replace(/^module .*$/m, "module overview").replace(/=> \S+$/m, `=> ${dir}`));
    cpSync(path.join(mocksMod, "go.sum"), path.join(exampleDir, "go.sum"));
    writeFileSync(path.join(exampleDir, "main.go"), overviewExample("go"));
    await run("go", ["vet", "."], { cwd: exampleDir, env });
    await run("go", ["build", "-o", path.join(exampleDir, "overview"), "."], { cwd: exampleDir, env });
    // The schema's Go examples, a main package each, in one module (test/package/sdks/go-examples: the
    // requirements they need, the config package's among them) with the SDK's module pointed at sdks/go.
    const examplesDir = path.join(work, "go-examples");
    mkdirSync(examplesDir);
    const examplesMod = path.join(root, "test", "package", "sdks", "go-examples");
    writeFileSync(path.join(examplesDir, "go.mod"), readFileSync(path.join(examplesMod, "go.mod"), "utf8").replace(/=> \S+$/m, `=> ${dir}`));
    cpSync(path.join(examplesMod, "go.sum"), path.join(examplesDir, "go.sum"));
    writeExamples(examplesDir, "go", (id) => path.join(id, "main.go"));
    // And the program `pulumi import --generate-code` writes in Go, with every enum member.
    const goImport = (await generatedImportCode(work)).go;
    checkImportCode("go", goImport);
    mkdirSync(path.join(examplesDir, "import-generated"));
    writeFileSync(path.join(examplesDir, "import-generated", "main.go"), goImport);
    // `go list -export` compiles every package (into the build cache) without linking eight binaries
    // (`go build ./...` links each: ~30 s more, every run).
    await run("go", ["vet", "./..."], { cwd: examplesDir, env });
    await run("go", ["list", "-export", "./..."], { cwd: examplesDir, env });
  });

  it("Python: sdks/python builds a wheel from the repository's git URL (#subdirectory=sdks/python), which installs with `pulumi` from PyPI and runs a program under Pulumi's mocks; so do the schema's Python examples", async function () {
    if (noPython) {
      console.log(`      skipped: ${noPython}`);
      this.skip();
    }
    // From a git URL with #subdirectory=, as the README's `pip install git+https://…` (pip clones it into
    // a folder of its own, so the build's build/ and *.egg-info stay out of the checkout).
    const source = `git+file://${await _gitSnapshot(work)}#subdirectory=sdks/python`;
    const venv = path.join(work, "venv");
    await run("python3", ["-m", "venv", venv]);
    const python = path.join(venv, "bin", "python");
    mkdirSync(path.join(cache, "pip"), { recursive: true });
    const env = _cleanEnv({ PIP_CACHE_DIR: path.join(cache, "pip"), PIP_DISABLE_PIP_VERSION_CHECK: "1", VIRTUAL_ENV: venv });
    const wheels = path.join(work, "wheels");
    await run(python, ["-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", wheels, source], { env: { ...env, PIP_NO_CACHE_DIR: "1" } });
    const wheel = readdirSync(wheels);
    assert.deepEqual(wheel, [`pulumi_dns_account-${pkg.version}-py3-none-any.whl`]);
    await run(python, ["-m", "pip", "install", "--quiet", path.join(wheels, wheel[0]!), `pulumi==${pulumiVersion}`], { env });
    const plugin = await run(python, ["-c", "import importlib.resources, json; print(importlib.resources.files('pulumi_dns_account').joinpath('pulumi-plugin.json').read_text())"], { env });
    assert.equal((JSON.parse(plugin) as { name: string; version: string }).version, pkg.version);
    // Not the real engine: the Go module proxy refuses pulumi-language-python here, so no engine can run a
    // Python program; Pulumi's unit-test mocks answer the registrations in-process instead.
    const stdout = await run(python, [path.join(root, "test", "package", "sdks", "python_mocks.py")], { env, cwd: work });
    checkMocksReport(JSON.parse(stdout) as MocksReport);
    // The overview's Python example (docs/_index.md), run as written under the same mocks.
    const example = path.join(work, "overview.py");
    writeFileSync(example, overviewExample("python"));
    const overview = await run(python, [path.join(root, "test", "package", "sdks", "python_example.py"), example], { env, cwd: work });
    checkOverview((JSON.parse(overview) as { registered: MocksReport["registered"] }).registered);
    // The schema's Python examples, each run as written under fresh mocks: each registers its resource
    // or calls its function.
    const pyDir = path.join(work, "py-examples");
    const pyExamples = programsIn(root, "python");
    const pyFiles = writeExamples(pyDir, "python", (id) => `${id.replace(/-/g, "_")}.py`).map((f) => path.join(pyDir, f));
    const reports = JSON.parse(await run(python, [path.join(root, "test", "package", "sdks", "python_example.py"), ...pyFiles], { env, cwd: work })) as { registered: { type: string }[]; calls: string[] }[];
    assert.equal(reports.length, pyExamples.length);
    pyExamples.forEach(({ id, example }, i) => {
      const seen = example.kind === "resource" ? reports[i]!.registered.map((r) => r.type) : reports[i]!.calls;
      assert.ok(seen.includes(example.token), `${id}: ${example.token} reached the mocks (${seen.join(", ")})`);
    });
    // What `pulumi import --generate-code` writes in Python runs as written, every enum member reaching
    // the mocks as its value.
    if (!noGo) {
      const code = (await generatedImportCode(work)).python;
      checkImportCode("python", code);
      const file = path.join(work, "import_generated.py");
      writeFileSync(file, code);
      // One program: its report alone (python_example.py prints a list for several).
      const report = JSON.parse(await run(python, [path.join(root, "test", "package", "sdks", "python_example.py"), file], { env, cwd: work })) as { registered: { type: string; inputs: { deviceType?: string; settings?: { blockingMode?: { mode?: string } } } }[] };
      // Registrations arrive in no fixed order: compared as sets.
      const registered = report.registered;
      assert.deepEqual(registered.filter((r) => r.type === "dns-account:index:Device").map((r) => r.inputs.deviceType).sort(), Object.keys(MEMBERS.DeviceType!).sort());
      assert.deepEqual(registered.filter((r) => r.type === "dns-account:index:DnsServer").map((r) => r.inputs.settings?.blockingMode?.mode).sort(), Object.keys(MEMBERS.BlockingModeKind!).sort());
    }
  });

  it("Java: sdks/java builds a jar with Maven (`mvn package`), and a program under Pulumi's mocks registers a DnsServer and a Device; the schema's Java examples compile", async function () {
    if (noMaven) {
      console.log(`      skipped: ${noMaven}`);
      this.skip();
    }
    // A copy: Maven writes target/ beside pom.xml. Downloads go to a repository kept between runs.
    const source = path.join(work, "java-src");
    cpSync(path.join(root, "sdks", "java"), source, { recursive: true });
    await run("mvn", ["--batch-mode", "--quiet", `-Dmaven.repo.local=${path.join(cache, "m2")}`, "package"], { cwd: source });
    const jar = path.join(source, "target", `dns-account-${pkg.version}.jar`);
    assert.ok(existsSync(jar));
    // test/package/sdks/java-mocks: a single-file program on the jar and its dependencies' classpath.
    const classpath = path.join(work, "classpath.txt");
    await run("mvn", ["--batch-mode", "--quiet", `-Dmaven.repo.local=${path.join(cache, "m2")}`, "org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath", `-Dmdep.outputFile=${classpath}`], { cwd: source });
    const stdout = await run("java", ["-cp", [jar, readFileSync(classpath, "utf8").trim()].join(path.delimiter), path.join(root, "test", "package", "sdks", "java-mocks", "DnsAccountMocks.java")]);
    checkMocksReport(JSON.parse(stdout) as MocksReport);
    // The overview's Java example (docs/_index.md) compiles against the jar as written.
    const javaOut = path.join(work, "java-overview");
    mkdirSync(javaOut);
    writeFileSync(path.join(work, "App.java"), overviewExample("java"));
    await run("javac", ["-cp", [jar, readFileSync(classpath, "utf8").trim()].join(path.delimiter), "-d", javaOut, path.join(work, "App.java")]);
    assert.ok(existsSync(path.join(javaOut, "myproject", "App.class")));
    // The schema's Java examples compile against the jar, in one javac run: each is `package myproject;
    // public class App`, so each gets a package of its own (the one line changed).
    const javaExamples = path.join(work, "java-examples");
    const sources = writeExamples(javaExamples, "java", (id) => path.join(id, "App.java"), (text, id) => {
      assert.match(text, /^package myproject;$/m, `${id}: package myproject`);
      return text.replace(/^package myproject;$/m, `package ${javaPackage(id)};`);
    });
    await run("javac", ["-cp", [jar, readFileSync(classpath, "utf8").trim()].join(path.delimiter), "-d", path.join(javaExamples, "classes"), ...sources.map((s) => path.join(javaExamples, s))]);
    for (const source of sources) assert.ok(existsSync(path.join(javaExamples, "classes", javaPackage(path.dirname(source)), "App.class")), source);
  });

  it(".NET: sdks/dotnet builds with `dotnet build` where a .NET SDK is installed", async function () {
    if (noDotnet) {
      // The staleness test above still holds the committed .NET SDK to the schema.
      console.log(`      skipped: no .NET toolchain on this machine (${noDotnet}); sdks/dotnet is generated and checked for staleness only`);
      this.skip();
    }
    const source = path.join(work, "dotnet-src");
    cpSync(path.join(root, "sdks", "dotnet"), source, { recursive: true });
    await run("dotnet", ["build", "--nologo"], { cwd: source });
  });
});

/**
 * A PCL program with every value of DeviceType and BlockingModeKind: a Device per type and a DnsServer
 * per blocking mode, the form the engine gives imported state before a language host writes it as code.
 */
function importProgram(): string {
  const lines: string[] = [];
  for (const value of Object.keys(MEMBERS.DeviceType!)) lines.push(`resource device_${value.toLowerCase()} "dns-account:index:Device" {`, `  name = "${value}"`, `  deviceType = "${value}"`, `  dnsServerId = "srv-1"`, "}");
  for (const value of Object.keys(MEMBERS.BlockingModeKind!)) lines.push(`resource server_${value.toLowerCase()} "dns-account:index:DnsServer" {`, `  name = "${value}"`, `  settings = { blockingMode = { mode = "${value}" } }`, "}");
  return lines.join("\n") + "\n";
}

type ImportCode = Record<"python" | "go" | "nodejs", string>;
let importCode: Promise<ImportCode> | undefined;

/**
 * What `pulumi import --generate-code` writes for importProgram() in Python, Go and TypeScript: the
 * language hosts call Pulumi's program generators, which scripts/gen-sdks/program runs here (the hosts
 * cannot be built on this machine). Built and run once per suite.
 */
function generatedImportCode(work: string): Promise<ImportCode> {
  importCode ??= (async () => {
    const source = path.join(work, "import.pp");
    writeFileSync(source, importProgram());
    const bin = path.join(work, "gen-program");
    await run("go", ["build", "-trimpath", "-o", bin, "./program"], { cwd: path.join(root, "scripts", "gen-sdks") });
    return JSON.parse(await run(bin, ["-root", root, source])) as ImportCode;
  })();
  return importCode;
}

/** The generated program names every DeviceType and BlockingModeKind member as the SDK declares it. */
function checkImportCode(lang: keyof ImportCode, code: string): void {
  for (const type of ["DeviceType", "BlockingModeKind"]) {
    for (const member of Object.values(MEMBERS[type]!)) {
      const ref = lang === "python" ? `dns_account.${type}.${member.python}` : lang === "go" ? `dnsaccount.${member.go}` : `dns_account.${type}.${member.other}`;
      assert.ok(code.includes(ref), `the generated ${lang} program names ${ref}`);
    }
  }
}

/** A Java package name for the example `id` (`Device-1` → `example_device_1`). */
const javaPackage = (id: string) => `example_${id.toLowerCase().replace(/-/g, "_")}`;

/**
 * Writes the schema's examples in `lang` under `dir` (each at `file(id)`, through `edit` if given) and
 * returns their paths relative to `dir`.
 */
function writeExamples(dir: string, lang: ExampleLanguage, file: (id: string) => string, edit: (text: string, id: string) => string = (t) => t): string[] {
  const written: string[] = [];
  for (const { id, text } of programsIn(root, lang)) {
    const target = path.join(dir, file(id));
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, edit(text, id));
    written.push(file(id));
  }
  assert.ok(written.length >= 8, `the schema has ${lang} examples for its four resources and four functions`);
  return written;
}

/** The overview's example in one language (docs/_index.md), exactly one block. */
function overviewExample(lang: string): string {
  const found = fencedBlocks(readFileSync(path.join(root, "docs", "_index.md"), "utf8"), "docs/_index.md").filter((b) => b.lang === lang);
  assert.equal(found.length, 1, `docs/_index.md has one ${lang} example`);
  return found[0]!.text;
}

/** What the overview's example declares, as the mocks of every language must see it. */
function checkOverview(registered: { type: string; name: string; inputs: Record<string, unknown> }[]): void {
  assert.deepEqual(
    registered.map((r) => [r.type, r.name, r.inputs.name]),
    [
      ["dns-account:index:DnsServer", "home", "Home"],
      ["dns-account:index:Device", "laptop", "Laptop"],
    ],
  );
  assert.deepEqual(registered[0]!.inputs.settings, { blockTtlSeconds: 60, userRules: { rules: ["||ads.example^"] } });
  assert.equal(registered[1]!.inputs.deviceType, "MAC");
  assert.equal(registered[1]!.inputs.dnsServerId, "srv-1");
}

/** What each mocks program prints: the registrations the mocks saw and the outputs that resolved. */
interface MocksReport {
  registered: { type: string; name: string; inputs: Record<string, unknown> }[];
  server: { urn: string; serverId: string; effectiveProtectionEnabled: boolean };
  device: { urn: string; deviceId: string; dnsServerId: string; deviceType: string; dnsAddresses: Record<string, string>; linkedIpv4: string[] };
}

/** The same program in every language gives the same report: the schema's tokens and wire names. */
function checkMocksReport(report: MocksReport): void {
  assert.deepEqual(
    report.registered.map((r) => [r.type, r.name]),
    [
      ["dns-account:index:DnsServer", "home"],
      ["dns-account:index:Device", "phone"],
    ],
  );
  const [server, device] = report.registered;
  assert.equal(server!.inputs.name, "Home");
  assert.deepEqual(server!.inputs.settings, { protectionEnabled: true });
  // The language's names (device_type, dns_server_id) go on the wire as the schema's; the server's id flowed in.
  assert.equal(device!.inputs.deviceType, "IOS");
  assert.equal(device!.inputs.dnsServerId, "srv-1");
  assert.match(report.server.urn, /[:$]dns-account:index:DnsServer::home$/);
  assert.match(report.device.urn, /[:$]dns-account:index:Device::phone$/);
  assert.equal(report.server.serverId, "srv-1");
  assert.equal(report.server.effectiveProtectionEnabled, true);
  assert.deepEqual(
    { ...report.device, urn: undefined },
    { urn: undefined, deviceId: "dev-1", dnsServerId: "srv-1", deviceType: "IOS", dnsAddresses: { dnsOverHttpsUrl: "https://d.example/dns-query/dev-1" }, linkedIpv4: ["192.0.2.1"] },
  );
}

/** test/package/sdks/python_mocks.py (and go-mocks/main.go, java-mocks/DnsAccountMocks.java), against the compiled TypeScript SDK (argv[2] is its folder). */
const NODE_MOCKS = `"use strict";
const pulumi = require("@pulumi/pulumi");
const registered = [];
pulumi.runtime.setMocks({
  newResource(args) {
    registered.push({ type: args.type, name: args.name, inputs: args.inputs });
    const state = { ...args.inputs };
    if (args.type === "dns-account:index:DnsServer") {
      Object.assign(state, { serverId: "srv-1", isDefault: false, devicesCount: 0, deleteOnDestroy: true, effectiveSettings: { protectionEnabled: true, blockTtlSeconds: 10 } });
      return { id: "srv-1", state };
    }
    if (args.type === "dns-account:index:Device") {
      Object.assign(state, { deviceId: "dev-1", deleteOnDestroy: true, linkedIpv4: ["192.0.2.1"], dnsAddresses: { dnsOverHttpsUrl: "https://d.example/dns-query/dev-1" }, dnsAddressesWithAuth: {} });
      return { id: "dev-1", state };
    }
    return { id: args.name + "-id", state };
  },
  call() {
    return {};
  },
}, "project", "stack", false);
const dns = require(process.argv[2]);
const server = new dns.DnsServer("home", { name: "Home", settings: { protectionEnabled: true } });
const device = new dns.Device("phone", { name: "Phone", deviceType: dns.types.enums.DeviceType.IOS, dnsServerId: server.serverId });
// A field of the typed addresses (an object type of the schema), lifted from the Output.
pulumi.all([server.urn, server.serverId, server.effectiveSettings.protectionEnabled, device.urn, device.deviceId, device.dnsServerId, device.deviceType, device.dnsAddresses.dnsOverHttpsUrl, device.linkedIpv4])
  .apply(([serverUrn, serverId, protection, deviceUrn, deviceId, dnsServerId, deviceType, dnsOverHttpsUrl, linkedIpv4]) => {
    console.log(JSON.stringify({
      registered,
      server: { urn: serverUrn, serverId, effectiveProtectionEnabled: protection },
      device: { urn: deviceUrn, deviceId, dnsServerId, deviceType, dnsAddresses: { dnsOverHttpsUrl }, linkedIpv4 },
    }));
  });
`;
