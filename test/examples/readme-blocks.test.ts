import assert from "node:assert/strict";
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import tls from "node:tls";
import { promisify } from "node:util";
import { type Emulator, startEmulator } from "../../emulator";
import { DEFAULT_USERS } from "../../emulator/state";
import { createClient } from "../../sdk";
import { _spawnProvider, _stopProvider } from "../support/engine/provider-host";
import { _gitSnapshot } from "../support/git-snapshot";
import { _cleanEnv, _repoRoot, _skipBecause, _waitForLine } from "../support/helpers";
import { _tofuBin, _tofuMissing } from "../support/tofu-cli";
import { type FencedBlock, fencedBlocks } from "../support/readme-blocks";
import { type Program, type Schema, _namesNotInSchema, problems } from "../support/yaml-program";

// js-yaml comes with mocha (and @pulumi/pulumi): no dependency of its own for one test.
const yaml = require("js-yaml") as { load(text: string): unknown };

const run = promisify(execFile);
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const root = _repoRoot();
/** The README and every page of docs/: their code blocks are run alike. */
const DOC_FILES = ["README.md", ...readdirSync(path.join(root, "docs")).filter((f) => f.endsWith(".md")).sort().map((f) => `docs/${f}`)];
const SCHEMA = JSON.parse(readFileSync(path.join(root, "provider", "schema", "schema.json"), "utf8")) as Schema & {
  config: { variables: Record<string, { secret?: boolean }> };
};
/** The service's default host: the blocks that use it reach the emulator through a local proxy. */
const SERVICE_HOST = "api.adguard-dns.io";
/** The package's version, as the install blocks name it. */
const VERSION = (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { version: string }).version;
const PASSWORD = "emulator-password";

/** A README line run as something else, or not at all (`run: null`), and why. */
interface LineMapping {
  /** The start of the README line (after its indentation). */
  line: string;
  run: string | null;
  reason: string;
}

/** How the test runs one README block. */
interface Handler {
  title: string;
  lang: string;
  /** The block's first line starts with this. */
  first: string;
  /** …and its text contains this, or each of these (for blocks whose first lines are alike). */
  contains?: string | string[];
  /** …and its text does not contain this. */
  excludes?: string;
  /** Lines of a shell block run otherwise, each with its reason. */
  lines?: LineMapping[];
  /** Placeholders of a shell block (a reader's own path) replaced wherever they occur, with the reason. */
  placeholders?: { text: string; by: string; reason: string }[];
  /** Why the block is not run as it stands (and what is checked instead). Absent: it runs as written. */
  notRun?: string;
  /** `ctx` is the test's, for a block that needs a tool this machine may lack (it skips, saying so). */
  run(block: FencedBlock, ctx: Mocha.Context): Promise<void>;
}

function matches(h: Handler, b: FencedBlock): boolean {
  const contains = h.contains === undefined ? [] : [h.contains].flat();
  return h.lang === b.lang && b.first.startsWith(h.first) && contains.every((c) => b.text.includes(c)) && (h.excludes === undefined || !b.text.includes(h.excludes));
}

/**
 * Issue 22 §7: every fenced block of README.md is run exactly as written, against the emulator where it
 * needs the service. The service's own host (`https://api.adguard-dns.io`, the default of the SDK and
 * the CLI) is reached through a local HTTPS proxy (HTTPS_PROXY, as the SDK, the CLI and curl honour it)
 * that hands it to the emulator behind a throwaway certificate (NODE_EXTRA_CA_CERTS, CURL_CA_BUNDLE),
 * so not one character of a block changes for it. Free variables of a TypeScript block come from a
 * prelude placed before the block; a shell line that cannot run here (GitHub, a browser, a server that
 * never exits) is mapped, with its reason, below. A new block that no handler claims fails the first
 * test, naming its first line.
 */
describe("README and docs/: every code block runs as written", function () {
  this.timeout(900_000);
  /**
   * The OpenTofu page's HCL blocks are run by test/tofu/docs-opentofu.test.ts under the real tofu (npm run
   * test:tofu), each as written; this test claims the page's other blocks.
   */
  const ranByTofu = (b: FencedBlock): boolean => b.file === "docs/opentofu.md" && b.lang === "hcl";
  const blocks = DOC_FILES.flatMap((f) => fencedBlocks(readFileSync(path.join(root, f), "utf8"), f)).filter((b) => !ranByTofu(b));
  /** The blocks a handler claims; a block repeated word for word in another file (the README's install, say) is one block. */
  const claimed = (h: Handler): FencedBlock[] => [...new Map(blocks.filter((b) => matches(h, b)).map((b) => [b.text, b])).values()];
  const blockFor = (h: Handler): FencedBlock => {
    const found = claimed(h);
    assert.equal(found.length, 1, `${found.length} distinct blocks match "${h.first}" (see the first test)`);
    return found[0]!;
  };

  let tmp: string;
  let home: string;
  let clone: string;
  /** The OpenTofu page's fresh clone, which its first terminal's block made. */
  let tofuClone: string | undefined;
  let globalPrefix: string;
  let snapshot: string;
  let npmCache: string;
  let npmUserConfig: string;
  let certFile: string;
  let proxyUrl: string;
  let emu: Emulator;
  let emuMfa: Emulator;
  let target: Emulator;
  const servers: net.Server[] = [];
  const sockets = new Set<net.Socket>();

  before(async () => {
    // What the blocks call besides node and npm (Debian: git, openssl, curl, bsdutils).
    for (const tool of ["git", "openssl", "curl", "script"]) {
      await run("sh", ["-c", `command -v ${tool}`]).catch(() => assert.fail(`the README blocks need ${tool} on PATH`));
    }
    tmp = mkdtempSync(path.join(os.tmpdir(), "dns-account-readme-"));
    home = path.join(tmp, "home");
    clone = path.join(home, "pulumi-dns-account");
    globalPrefix = path.join(tmp, "global");
    mkdirSync(path.join(home, "my-program"), { recursive: true });
    // The reader's program folder: the Install block `cd`s into it and installs there.
    writeFileSync(path.join(home, "my-program", "package.json"), JSON.stringify({ name: "my-program", private: true }));
    snapshot = await _gitSnapshot(tmp);
    npmCache = (await run(npm, ["config", "get", "cache"])).stdout.trim();
    npmUserConfig = (await run(npm, ["config", "get", "userconfig"])).stdout.trim();

    // me@example.com, the README's account: without MFA for the CLI, with it for the SDK block's MFA branch.
    // Reached through the TLS front as the real service's host: the emulator allows that name.
    emu = await startEmulator({ users: [...DEFAULT_USERS, { username: "me@example.com", password: PASSWORD }], allowedHosts: [`${SERVICE_HOST}:443`] });
    emuMfa = await startEmulator({ users: [...DEFAULT_USERS, { username: "me@example.com", password: PASSWORD, mfa: true }], allowedHosts: [`${SERVICE_HOST}:443`] });
    target = emu;

    // The service's host, played by the emulator: TLS with a throwaway certificate, then a CONNECT proxy.
    const tlsDir = path.join(tmp, "tls");
    mkdirSync(tlsDir);
    certFile = path.join(tlsDir, "cert.pem");
    const keyFile = path.join(tlsDir, "key.pem");
    await run("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2", "-subj", `/CN=${SERVICE_HOST}`, "-addext", `subjectAltName=DNS:${SERVICE_HOST}`, "-keyout", keyFile, "-out", certFile]);
    const track = (s: net.Socket) => {
      sockets.add(s);
      s.once("close", () => sockets.delete(s));
      s.on("error", () => s.destroy());
    };
    const front = tls.createServer({ key: readFileSync(keyFile), cert: readFileSync(certFile) }, (socket) => {
      const upstream = net.connect(Number(new URL(target.url).port), "127.0.0.1");
      track(upstream);
      upstream.once("close", () => socket.destroy());
      socket.once("close", () => upstream.destroy());
      socket.pipe(upstream).pipe(socket);
    });
    front.on("connection", track);
    const proxy = http.createServer((_req, res) => res.writeHead(405).end());
    proxy.on("connection", track);
    proxy.on("connect", (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
      const m = /^\[?([^\]]+?)\]?:(\d+)$/.exec(req.url ?? "");
      if (!m) return void client.end("HTTP/1.1 400 Bad Request\r\n\r\n");
      // The service's host goes to the emulator; anything else (npm's registry) is tunnelled as is.
      const upstream = m[1] === SERVICE_HOST && m[2] === "443" ? net.connect((front.address() as AddressInfo).port, "127.0.0.1") : net.connect(Number(m[2]), m[1]);
      track(upstream);
      upstream.once("connect", () => {
        client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
        upstream.write(head);
        upstream.pipe(client).pipe(upstream);
      });
      upstream.once("error", () => client.end("HTTP/1.1 502 Bad Gateway\r\n\r\n"));
      client.once("close", () => upstream.destroy());
    });
    for (const server of [front, proxy]) {
      servers.push(server);
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    }
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  });

  after(async () => {
    for (const s of sockets) s.destroy();
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
    await emu?.close();
    await emuMfa?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  /** A reader's shell: a fresh HOME, the bins `npm install -g` put on PATH, npm's own cache (so it works offline). */
  const npmEnv = (): NodeJS.ProcessEnv => {
    const env = _cleanEnv({
      HOME: home,
      PATH: `${path.join(globalPrefix, "bin")}${path.delimiter}${process.env.PATH ?? ""}`,
      npm_config_cache: npmCache,
      npm_config_userconfig: npmUserConfig,
      npm_config_prefix: globalPrefix,
      npm_config_prefer_offline: "true",
      npm_config_audit: "false",
      npm_config_fund: "false",
      npm_config_update_notifier: "false",
      README_SNAPSHOT: snapshot,
    });
    for (const k of Object.keys(env)) if (k.startsWith("XDG_")) delete env[k];
    return env;
  };
  /** …plus the service's host played by the emulator, and the reader's secrets the blocks name. */
  const serviceEnv = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
    ...npmEnv(),
    HTTPS_PROXY: proxyUrl,
    https_proxy: proxyUrl,
    NO_PROXY: "localhost,127.0.0.1",
    no_proxy: "localhost,127.0.0.1",
    NODE_EXTRA_CA_CERTS: certFile,
    CURL_CA_BUNDLE: certFile,
    PASSWORD,
    API_KEY: "emulator-api-key-user",
    ...extra,
  });

  /** The block as a bash script: each line as written unless mapped, after a marker naming its README line. */
  const shellScript = (h: Handler, block: FencedBlock): string => {
    const out = ["set -eo pipefail"];
    /** The word that ends the here-document being written, whose lines go as they are (no marker between them). */
    let hereDocEnd: string | undefined;
    block.text.split("\n").forEach((raw, i) => {
      const line = raw.trim();
      if (hereDocEnd !== undefined) {
        out.push(raw);
        if (raw === hereDocEnd) hereDocEnd = undefined;
        return;
      }
      if (line === "" || line.startsWith("#")) return;
      hereDocEnd = /(?<!<)<<-?\s*(['"]?)(\w+)\1\s*$/.exec(line)?.[2];
      const mapping = h.lines?.find((m) => line.startsWith(m.line));
      let command: string | null = raw;
      if (mapping) command = mapping.run;
      else for (const p of h.placeholders ?? []) command = command.split(p.text).join(p.by);
      out.push(`printf '>>> ${block.file} line %s\\n' ${block.line + 1 + i} >&2`);
      if (command !== null) out.push(command);
    });
    return out.join("\n") + "\n";
  };

  /** Runs a shell block with bash (on a pseudo-terminal when it prompts); fails naming the README line. */
  const runShell = async (h: Handler, block: FencedBlock, options: { cwd: string; env: NodeJS.ProcessEnv; prompts?: [RegExp, string][] }): Promise<string> => {
    const file = path.join(tmp, `block-${block.file.replace(/\W/g, "-")}-${block.line}.sh`);
    writeFileSync(file, shellScript(h, block));
    const child = options.prompts ? spawn("script", ["-qfec", `bash ${file}`, "/dev/null"], { cwd: options.cwd, env: options.env }) : spawn("bash", [file], { cwd: options.cwd, env: options.env });
    let output = "";
    let next = 0;
    let seen = 0;
    const onData = (d: Buffer): void => {
      output += d.toString();
      // Each answer waits for its prompt to appear after the previous one, as a reader types it.
      while (options.prompts && next < options.prompts.length) {
        const [pattern, answer] = options.prompts[next]!;
        const m = pattern.exec(output.slice(seen));
        if (!m) break;
        seen += m.index + m[0].length;
        child.stdin!.write(`${answer}\r`);
        next++;
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    if (!options.prompts) child.stdin!.end();
    const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
    const failedAt = [...output.matchAll(/>>> \S+ line (\d+)/g)].pop()?.[1];
    assert.equal(code, 0, `${block.file} line ${failedAt ?? block.line} failed (${block.first}):\n${output.slice(-3000)}`);
    return output;
  };

  /** Compiles prelude + block as an ES module in the clone (where "pulumi-dns-account/…" is the package itself) and runs it. */
  const runTypeScript = async (name: string, prelude: string, block: FencedBlock, env: NodeJS.ProcessEnv): Promise<string> => {
    const dir = path.join(clone, ".readme", name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, "block.mts"), `${prelude.trim()}\n// ${block.file} line ${block.line + 1}, as written:\n${block.text}`);
    const compilerOptions = { module: "nodenext", moduleResolution: "nodenext", target: "es2022", strict: true, types: ["node"], outDir: "out", rootDir: ".", skipLibCheck: true };
    writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions, files: ["block.mts"] }));
    await tsc(dir, block);
    const result = await run(process.execPath, [path.join(dir, "out", "block.mjs")], { cwd: clone, env }).catch((err: { stdout?: string; stderr?: string }) => {
      throw new assert.AssertionError({ message: `${block.file} line ${block.line} (${block.first}) failed:\n${err.stderr ?? ""}${err.stdout ?? ""}` });
    });
    return result.stdout;
  };

  const tsc = async (dir: string, block: FencedBlock): Promise<void> => {
    const out = await run(process.execPath, [path.join(clone, "node_modules", "typescript", "bin", "tsc"), "-p", dir], { cwd: dir }).then(
      (r) => r.stdout,
      (err: { stdout?: string }) => err.stdout || String(err), // no output and a failure (no tsc in the clone yet, say) fails too
    );
    assert.equal(out.trim(), "", `${block.file} line ${block.line} (${block.first}) does not compile:\n${out.split("\n").slice(0, 20).join("\n")}`);
  };

  /** Type-checks a Pulumi program block with the tsconfig of Pulumi's current TypeScript template. */
  const compileProgram = async (name: string, block: FencedBlock, more: Record<string, unknown> = {}): Promise<void> => {
    const dir = path.join(clone, ".readme", name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, "index.ts"), block.text);
    const compilerOptions = {
      strict: true,
      outDir: "bin",
      target: "es2020",
      module: "nodenext",
      moduleResolution: "nodenext",
      sourceMap: true,
      experimentalDecorators: true,
      pretty: false,
      noFallthroughCasesInSwitch: true,
      noImplicitReturns: true,
      forceConsistentCasingInFileNames: true,
      noEmit: true,
      // The block against the package's declarations; the declarations themselves are checked without
      // skipLibCheck, as the template has it, by test/package (this saves half a minute per block).
      skipLibCheck: true,
      // Only because the program sits inside the package's own folder (a self-reference): installed, it needs none.
      rootDir: ".",
      ...more,
    };
    writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions, files: ["index.ts"] }));
    await tsc(dir, block);
  };

  /** Where the docs' other Pulumi programs run as written: the engine suite (`npm run test:engine`), not this one. */
  const DOCS_BY_ENGINE =
    "it runs as written by the real pulumi up, preview --expect-no-changes and destroy against the emulator, checked at the service and in the stack's outputs, in test/engine/doc-programs.test.ts (npm run test:engine, which needs the engine)";
  /** …for the TypeScript ones, also type-checked here. */
  const NO_ENGINE = DOCS_BY_ENGINE + "; here it is type-checked as a program of Pulumi's TypeScript template";
  /** Where the overview's examples (docs/_index.md) run as written: the engine suite (`npm run test:engine`), not this one. */
  const OVERVIEW_BY_ENGINE =
    "it runs as written by the real pulumi up, preview --expect-no-changes and destroy against the emulator in test/engine/overview-examples.test.ts (npm run test:engine, which needs the engine)";

  // In the order a reader goes: clone and install first, then the rest in that clone and on that PATH.
  const HANDLERS: Handler[] = [
    {
      title: "Install: clone, npm ci && npm pack, install the tarball into a program and globally",
      lang: "sh",
      first: "git clone https://github.com/pulumi-dns-account/pulumi-dns-account",
      excludes: "npm run package:tofu",
      lines: [
        {
          line: "git clone https://github.com/pulumi-dns-account/pulumi-dns-account",
          run: 'git clone --quiet "$README_SNAPSHOT" pulumi-dns-account && cd pulumi-dns-account',
          reason: "GitHub is not reachable offline and holds the published code: the clone is of a git snapshot of the working tree under test",
        },
      ],
      placeholders: [{ text: "/path/to/", by: "$HOME/pulumi-dns-account/", reason: "the reader's own path to the clone" }],
      async run(block) {
        await runShell(this, block, { cwd: home, env: npmEnv() });
        const version = (JSON.parse(readFileSync(path.join(clone, "package.json"), "utf8")) as { version: string }).version;
        const inProgram = await run(path.join(home, "my-program", "node_modules", ".bin", "dns-account"), ["--version"], { env: npmEnv() });
        assert.equal(inProgram.stdout.trim(), version);
        const onPath = await run("dns-account", ["--version"], { env: npmEnv() });
        assert.equal(onPath.stdout.trim(), version);
        assert.ok(existsSync(path.join(globalPrefix, "bin", "pulumi-resource-dns-account")), "the plugin is on PATH");
      },
    },
    {
      title: "Try it: npm ci && npm run demo in the clone",
      lang: "sh",
      first: "npm ci && npm run demo",
      lines: [{ line: "npm test", run: null, reason: "it is the command that runs this test (it would recurse); CI runs it on a fresh clone (.ci/run)" }],
      async run(block) {
        const out = await runShell(this, block, { cwd: clone, env: npmEnv() });
        assert.match(out, /Demo finished/);
      },
    },
    {
      title: "example.mjs, pasted into the clone after npm ci",
      lang: "js",
      first: "// example.mjs",
      async run(block) {
        // "In the repository folder (after npm ci)": the clone as git gives it (no dist/), then npm ci, then
        // the file. The blocks before built dist/ in other ways (npm pack, the demo).
        rmSync(path.join(clone, "dist"), { recursive: true, force: true });
        await run(npm, ["ci"], { cwd: clone, env: npmEnv(), maxBuffer: 64 * 1024 * 1024 });
        writeFileSync(path.join(clone, "example.mjs"), block.text);
        const { stdout } = await run(process.execPath, ["example.mjs"], { cwd: clone, env: npmEnv() });
        assert.match(stdout, /^devices: 0\/10$/m);
        assert.match(stdout, /^created device [0-9a-f]+: https:\/\//m);
        assert.match(stdout, /^operations: \d+$/m);
      },
    },
    {
      title: "the SDK's grants: password, the MFA retry, refresh, revoke",
      lang: "ts",
      first: 'import { issueToken, refreshToken, revokeToken, MfaRequiredError } from "pulumi-dns-account/sdk";',
      async run(block) {
        target = emuMfa;
        try {
          const prelude = `
// The reader's own values: me@example.com's password, and the code their authenticator shows.
const password = ${JSON.stringify(PASSWORD)};
const askForCode = async (): Promise<string> => "123456";`;
          await runTypeScript("sdk-grants", prelude, block, serviceEnv());
        } finally {
          target = emu;
        }
        // The MFA branch ran: a refused login, then one with the code; one refresh; one proven revocation.
        assert.equal(emuMfa.stats.passwordGrants, 2);
        assert.equal(emuMfa.stats.refreshGrants >= 1, true);
        assert.ok(emuMfa.stats.revokeCalls >= 1);
        assert.equal(emuMfa.tokenCounts("me@example.com").refreshTokens, 0);
      },
    },
    {
      title: "Authorization Code + PKCE",
      lang: "ts",
      first: "const auth = authorizeUrl(",
      async run(block) {
        const browser = path.join(tmp, "browser.cjs");
        // The reader's browser: signs in at the service's page and follows the authorize URL to the redirect.
        writeFileSync(
          browser,
          `const u = new URL(process.argv[2]);
const emu = process.env.README_EMULATOR;
(async () => {
  const form = new URLSearchParams({ username: "me@example.com", password: ${JSON.stringify(PASSWORD)}, return_to: u.pathname + u.search });
  const login = await fetch(emu + "/login", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: form, redirect: "manual" });
  const cookie = String(login.headers.get("set-cookie")).split(";")[0];
  const res = await fetch(emu + u.pathname + u.search, { headers: { cookie }, redirect: "manual" });
  if (!res.headers.get("location")) throw new Error("no redirect: " + res.status);
  process.stdout.write(res.headers.get("location"));
})().catch((err) => { console.error(err); process.exit(1); });
`,
        );
        const prelude = `
import { execFileSync } from "node:child_process";
import { authorizeUrl as sdkAuthorizeUrl, exchangeCode, parseCodeRedirect } from "pulumi-dns-account/sdk";
// The reader's OAuth client and redirect URI (the emulator's client takes any loopback port).
const clientId = "dns-account-cli";
const redirectUri = "http://127.0.0.1:45678/callback";
// The SDK's authorizeUrl, noting the URL the reader opens in the browser (the result is returned untouched).
let opened = "";
const authorizeUrl = ((options: Parameters<typeof sdkAuthorizeUrl>[0]) => {
  const auth = sdkAuthorizeUrl(options);
  opened = typeof auth === "string" ? auth : auth.url;
  return auth;
}) as typeof sdkAuthorizeUrl;
// Where the browser came back to, once the reader has signed in.
declare global {
  var callbackUrl: string;
}
Object.defineProperty(globalThis, "callbackUrl", { get: () => execFileSync(process.execPath, [${JSON.stringify(browser)}, opened], { encoding: "utf8" }) });`;
        const before = emu.stats.codeGrants;
        await runTypeScript("pkce", prelude, block, serviceEnv({ README_EMULATOR: emu.url }));
        assert.equal(emu.stats.codeGrants, before + 1);
      },
    },
    {
      title: "the Token program",
      lang: "ts",
      first: 'import { Token, getAccessToken, getClient } from "pulumi-dns-account";',
      notRun: NO_ENGINE,
      async run(block) {
        await compileProgram("token-program", block);
      },
    },
    {
      title: "pulumi config set: every key is the provider's, marked secret exactly where the schema says",
      lang: "sh",
      first: "pulumi config set dns-account:username",
      notRun: "pulumi config needs the pulumi CLI and a stack; each command is checked against the package schema's configuration instead",
      async run(block) {
        const commands = block.text.split("\n").filter((l) => /^pulumi config set\b/.test(l.trim()));
        assert.ok(commands.length > 0);
        for (const command of commands) {
          const m = /^pulumi config set (--secret )?dns-account:(\w+)/.exec(command.trim());
          assert.ok(m, command);
          const spec = SCHEMA.config.variables[m[2]!];
          assert.ok(spec, `${m[2]} is no configuration key of the provider`);
          assert.equal(Boolean(m[1]), Boolean(spec.secret), `${command.trim()}: --secret must match the schema`);
        }
      },
    },
    {
      title: "the account-as-code program",
      lang: "ts",
      first: 'import { DedicatedIpv4, Device, DnsServer } from "pulumi-dns-account";',
      notRun: NO_ENGINE,
      async run(block) {
        await compileProgram("account-program", block);
      },
    },
    {
      title: "the plugin's global install: npm ci && npm pack in the clone, then the packed tarball",
      lang: "sh",
      first: "npm ci && npm pack",
      contains: "npm install -g ./pulumi-dns-account-",
      async run(block) {
        await runShell(this, block, { cwd: clone, env: npmEnv() });
        // Pulumi starts it from PATH with the engine's address; it prints its port.
        const plugin = await _spawnProvider("pulumi-resource-dns-account", ["127.0.0.1:1"], { cwd: home, env: npmEnv() });
        try {
          assert.ok(plugin.port > 0);
        } finally {
          await _stopProvider(plugin.child);
        }
      },
    },
    ...[
      { where: "the README", contains: "pip install" },
      { where: "docs/plugin.md", contains: undefined },
    ].map(
      ({ where, contains }): Handler => ({
        title: `the plugin as one executable (${where}): npm run package:plugin in a fresh clone, then pulumi plugin install --file`,
        lang: "sh",
        // Whatever the block does first in the clone (npm ci), it builds the plugin with npm run package:plugin.
        first: "npm ",
        ...(contains ? { contains: ["npm run package:plugin", contains] } : { contains: "npm run package:plugin", excludes: "pip install" }),
        lines: [
          {
            line: "pulumi plugin install resource dns-account",
            run: `tar -xzf artifacts/pulumi-resource-dns-account-v${VERSION}-linux-amd64.tar.gz -C "$PLUGIN_DIR" && test "$(ls "$PLUGIN_DIR")" = pulumi-resource-dns-account`,
            reason: "the pulumi CLI is not assumed here: test/engine/plugin-tarball.test.ts runs this install under the real engine; here the tarball is unpacked as the engine unpacks it, and its one executable started with no node on PATH",
          },
          ...(contains
            ? [{ line: "pip install", run: null, reason: "GitHub cannot be reached from a test: test/package/sdks.test.ts runs the same pip install from a git+file:// snapshot" }]
            : []),
        ],
        async run(block) {
          const pluginDir = mkdtempSync(path.join(tmp, "plugin-"));
          // Issue 32 §5: a reader runs it in a clone as git gives it (no node_modules/, no dist/), not in the
          // one the blocks above prepared: a fresh clone of the tree under test for each of these blocks.
          const fresh = mkdtempSync(path.join(tmp, "fresh-clone-"));
          await run("git", ["clone", "--quiet", snapshot, fresh]);
          // The plugin build's cache is the machine's (a fresh HOME would build the executable again): its key
          // covers everything that goes into the executable, the packaging scripts included (scripts/package-plugin.mjs).
          const cache = process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), ".cache");
          await runShell(this, block, { cwd: fresh, env: { ...npmEnv(), XDG_CACHE_HOME: cache, PLUGIN_DIR: pluginDir } });
          // Pulumi starts it with the engine's address; it prints its port, with no node anywhere on PATH.
          const plugin = await _spawnProvider(path.join(pluginDir, "pulumi-resource-dns-account"), ["127.0.0.1:1"], { cwd: home, env: { PATH: "/nonexistent", HOME: home } });
          try {
            assert.ok(plugin.port > 0);
          } finally {
            await _stopProvider(plugin.child);
          }
        },
      }),
    ),
    {
      title: "OpenTofu: an existing account to HCL (export --format hcl, init, plan, apply)",
      lang: "sh",
      first: "dns-account export --format hcl > account.tf",
      notRun:
        "it needs tofu: test/tofu/export-hcl.test.ts (npm run test:tofu) runs these steps against the emulator (export, init, plan with only imports, apply, a plan with no changes); here the block's commands are checked against the CLI's usage",
      async run(block) {
        assert.match(block.text, /^tofu init$/m);
        assert.match(block.text, /^tofu plan\b/m);
        assert.match(readFileSync(path.join(root, "cli", "commands", "export.ts"), "utf8"), /--format import\|typescript\|hcl\|seed|hcl/);
        assert.ok(existsSync(path.join(root, "test", "tofu", "export-hcl.test.ts")));
      },
    },
    {
      title: "OpenTofu in five minutes, first terminal: a fresh clone, npm ci && npm run package:tofu, the mirror's CLI configuration",
      lang: "sh",
      first: "git clone https://github.com/pulumi-dns-account/pulumi-dns-account",
      contains: "npm run package:tofu",
      lines: [
        {
          line: "git clone https://github.com/pulumi-dns-account/pulumi-dns-account",
          run: 'git clone --quiet "$README_SNAPSHOT" pulumi-dns-account && cd pulumi-dns-account',
          reason: "GitHub is not reachable offline and holds the published code: the clone is of a git snapshot of the working tree under test",
        },
      ],
      async run(block) {
        // A clone as git gives it (no node_modules/, no dist/), in a folder of its own: the Install block's is taken.
        const fresh = mkdtempSync(path.join(tmp, "tofu-clone-"));
        // The executable's build cache is the machine's, as for the plugin's blocks: its key covers what goes into it.
        const cache = process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), ".cache");
        rmSync(path.join(home, "dnsaccount.tofurc"), { force: true });
        await runShell(this, block, { cwd: fresh, env: { ...npmEnv(), XDG_CACHE_HOME: cache } });
        tofuClone = path.join(fresh, "pulumi-dns-account");
        const cliConfig = readFileSync(path.join(home, "dnsaccount.tofurc"), "utf8");
        assert.ok(cliConfig.includes(`path    = "${path.join(tofuClone, "artifacts", "tofu-mirror")}"`), cliConfig);
        assert.ok(existsSync(path.join(tofuClone, "artifacts", "tofu-mirror", "registry.opentofu.org", "pulumi-dns-account", "dnsaccount")));
      },
    },
    {
      title: "OpenTofu in five minutes, back in the first terminal: the emulator's address and key, tofu init && tofu apply of examples/tofu-home-network",
      lang: "sh",
      first: "export TF_CLI_CONFIG_FILE=",
      contains: "tofu apply",
      placeholders: [{ text: "8787", by: "$EMULATOR_PORT", reason: "the second terminal's emulator listens on a port free on this machine, which the test picks" }],
      async run(block, ctx) {
        const missing = _tofuMissing();
        if (missing) _skipBecause(ctx, `the real tofu cannot run this block (npm run tofu builds it; test/tofu runs the same configuration): ${missing}`);
        assert.ok(tofuClone, "the first terminal's block ran before this one");
        // The example is the page's first configuration, word for word.
        const page = readFileSync(path.join(root, "docs", "opentofu.md"), "utf8");
        const first = fencedBlocks(page, "docs/opentofu.md").find((b) => b.lang === "hcl" && b.first === "terraform {" && b.text.includes("output \"laptop_doh\""));
        assert.equal(readFileSync(path.join(tofuClone, "examples", "tofu-home-network", "main.tf"), "utf8"), `${first!.text.trimEnd()}\n`);
        // The second terminal: `npm run emulator -- --port 8787` in the clone, on a port the system picks (8787 may be
        // taken here); its address line is the event to wait for.
        const emulator = spawn(npm, ["run", "emulator", "--", "--port", "0"], { cwd: tofuClone, env: npmEnv(), stdio: ["ignore", "pipe", "pipe"], detached: true });
        try {
          const port = await _waitForLine(emulator, /listening on http:\/\/127\.0\.0\.1:(\d+)/);
          const env = { ...npmEnv(), PATH: `${_tofuBin()}${path.delimiter}${npmEnv().PATH ?? ""}`, EMULATOR_PORT: port, CHECKPOINT_DISABLE: "1" };
          const out = await runShell(this, block, { cwd: tofuClone, env, prompts: [[/Enter a value:/, "yes"]] });
          assert.match(out, /Apply complete! Resources: 2 added, 0 changed, 0 destroyed/);
          const dir = path.join(tofuClone, "examples", "tofu-home-network");
          const tofuEnv = { ...env, TF_CLI_CONFIG_FILE: path.join(home, "dnsaccount.tofurc"), DNS_ACCOUNT_BASE_URL: `http://127.0.0.1:${port}`, DNS_ACCOUNT_API_KEY: "emulator-api-key-user" };
          const doh = (await run("tofu", ["output", "-raw", "laptop_doh"], { cwd: dir, env: tofuEnv })).stdout;
          assert.match(doh, /^https:\/\/[0-9a-f]+\.dns\.emulator\.invalid\/dns-query$/);
          const client = createClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: "emulator-api-key-user" });
          try {
            const servers = await client.dnsServers.list();
            assert.ok(servers.some((s) => s.name === "Home"), "the DNS server is at the service");
            await run("tofu", ["destroy", "-auto-approve"], { cwd: dir, env: tofuEnv });
            assert.ok(!(await client.dnsServers.list()).some((s) => s.name === "Home"), "tofu destroy removed it");
          } finally {
            await client.close();
          }
        } finally {
          // npm runs the emulator in a shell of its own: end the whole group.
          try {
            process.kill(-emulator.pid!, "SIGTERM");
          } catch {
            // already gone
          }
        }
      },
    },
    {
      title: "OpenTofu release: the signing key, made once on the release machine",
      lang: "sh",
      first: "gpg --quick-gen-key",
      notRun:
        "it makes a key of the reader's own keyring and asks for its passphrase; test/scripts/package-tofu-sign.test.ts makes a key of the same kind (ed25519, signing only) in a keyring of its own and signs and verifies with it; here the block's key kind is checked to be that one",
      async run(block) {
        assert.match(block.text, /^gpg --quick-gen-key "[^"]+" ed25519 sign \S+$/m);
        assert.match(block.text, /^gpg --armor --export <fingerprint> > \S+/m);
        assert.match(readFileSync(path.join(root, "test", "scripts", "package-tofu-sign.test.ts"), "utf8"), /"--quick-gen-key", "[^"]+", "ed25519", "sign"/);
      },
    },
    {
      title: "OpenTofu release: build and sign with --sign-key, the passphrase from the environment",
      lang: "sh",
      first: "GPG_PASSPHRASE=... npm run package:tofu",
      notRun:
        "it builds three platforms' executables (minutes) and needs the release key; test/scripts/package-tofu-sign.test.ts signs with the script's signSums and a throwaway key, and here the block's flags are checked against the script's",
      async run(block) {
        const script = readFileSync(path.join(root, "scripts", "package-tofu.mjs"), "utf8");
        for (const flag of block.text.match(/--[a-z-]+/g) ?? []) if (flag !== "--") assert.ok(script.includes(`"${flag}"`) || flag === "--platform", `package-tofu.mjs reads ${flag}`);
        assert.ok(script.includes("process.env.GPG_PASSPHRASE"));
      },
    },
    {
      title: "Pulumi YAML: a server and a device",
      lang: "yaml",
      first: "resources:",
      contains: "properties: { name: Home, settings:",
      notRun: DOCS_BY_ENGINE + "; here it is checked against the plugin's schema (types, properties, enums, references), as examples/yaml-home-network is",
      async run(block) {
        const program = { name: "readme", runtime: "yaml", ...(yaml.load(block.text) as Program) };
        assert.deepEqual(problems(program, SCHEMA), []);
      },
    },
    {
      title: "the overview's example in TypeScript",
      lang: "typescript",
      first: 'import { Device, DnsServer } from "pulumi-dns-account";',
      notRun: OVERVIEW_BY_ENGINE + "; here it is type-checked as a program of Pulumi's TypeScript template",
      async run(block) {
        await compileProgram("overview-typescript", block);
      },
    },
    {
      title: "the upgrade page's move to the generated Node.js SDK: step 4 in TypeScript",
      lang: "typescript",
      first: 'import * as dns from "@pulumi-dns-account/dns-account";',
      contains: '{ import: "<serverId>" }',
      notRun: "its ids are a reader's own; the whole move runs under the real engine in test/engine/move-to-nodejs-sdk.test.ts, and the block is type-checked here against the generated SDK's sources",
      async run(block) {
        // The SDK as its own sources in the clone (sdks/nodejs), which is what `npm install <clone>/sdks/nodejs` compiles.
        await compileProgram("upgrading-nodejs-sdk", block, { rootDir: "../..", paths: { "@pulumi-dns-account/dns-account": ["../../sdks/nodejs/index.ts"] } });
      },
    },
    {
      title: "the resources page's program in TypeScript (the dynamic resources)",
      lang: "typescript",
      first: 'import { DedicatedIpv4, DnsServer, Token } from "pulumi-dns-account";',
      notRun: NO_ENGINE,
      async run(block) {
        await compileProgram("resources-typescript", block);
      },
    },
    {
      title: "the resources page's program in Pulumi YAML: a whole Pulumi.yaml",
      lang: "yaml",
      first: "name: dns-account-resources",
      notRun: DOCS_BY_ENGINE + "; here it is checked against the plugin's schema (types, properties, enums, references), as examples/yaml-home-network is",
      async run(block) {
        const program = yaml.load(block.text) as Program & { name: string; runtime: string };
        assert.equal(program.runtime, "yaml");
        assert.deepEqual(problems(program, SCHEMA), []);
      },
    },
    ...(["python", "go", "java"] as const).map(
      (lang): Handler => ({
        title: `the resources page's program in ${lang}: every class, argument and output it names is the schema's`,
        lang,
        first: { python: '"""A Token that rotates', go: "// A Token that rotates", java: "// A Token that rotates" }[lang],
        notRun: `${DOCS_BY_ENGINE}; here the names the block uses are checked against the schema in ${lang}'s spelling`,
        async run(block) {
          // Java's own Map.of is no builder method of the SDK.
          assert.deepEqual(_namesNotInSchema(block.text, lang, SCHEMA).filter((p) => !(lang === "java" && p === "builder method of")), []);
        },
      }),
    ),
    {
      title: "the overview's example in Pulumi YAML",
      lang: "yaml",
      first: "resources:",
      contains: "outputs:",
      notRun: OVERVIEW_BY_ENGINE + "; here it is checked against the plugin's schema (types, properties, enums, references), as examples/yaml-home-network is",
      async run(block) {
        const program = { name: "overview", runtime: "yaml", ...(yaml.load(block.text) as Program) };
        assert.deepEqual(problems(program, SCHEMA), []);
      },
    },
    ...(["python", "go", "csharp", "java"] as const).map(
      (lang): Handler => ({
        title: `the overview's example in ${lang}: every class, argument and output it names is the schema's`,
        lang,
        first: { python: "import pulumi", go: "package main", csharp: "using System.Collections.Generic;", java: "package myproject;" }[lang],
        notRun: {
          python: OVERVIEW_BY_ENGINE + "; test/package/sdks.test.ts runs it as written under Pulumi's mocks against the generated SDK's wheel, and the names are checked here",
          go: OVERVIEW_BY_ENGINE + "; test/package/sdks.test.ts compiles and vets it as written against sdks/go, and the names are checked here",
          csharp: "no .NET toolchain here: the names the block uses are checked against the schema in C#'s spelling (sdks/dotnet is generated and checked for staleness)",
          java: OVERVIEW_BY_ENGINE + "; test/package/sdks.test.ts compiles it as written against the jar Maven builds from sdks/java, and the names are checked here",
        }[lang],
        async run(block) {
          // Pulumi's own Output.applyValue (the DoH address out of dnsAddresses) is no builder method of the SDK.
          assert.deepEqual(_namesNotInSchema(block.text, lang, SCHEMA).filter((p) => !(lang === "java" && p === "builder method applyValue")), []);
        },
      }),
    ),
    {
      title: "the Node.js SDK from a clone: install-links, npm install of sdks/nodejs, the postinstall approved",
      lang: "sh",
      first: "cd ~/my-program",
      contains: "sdks/nodejs",
      notRun: "it needs a clone and a program folder of the reader's: test/package/nodejs-sdk-install.test.ts runs these lines in a temporary program folder against a git clone of a snapshot of the repository (the install builds bin/, the SDK is required, a later npm install rebuilds it, the approval is recorded), and test/engine/nodejs-sdk-program.test.ts runs a program installed so by pulumi up; here each line is held to what those tests run",
      async run(block) {
        const lines = block.text.split("\n").map((l) => l.replace(/#.*$/, "").trim()).filter((l) => l);
        assert.deepEqual(lines, [
          "cd ~/my-program",
          'echo "install-links=true" >> .npmrc',
          "npm install /path/to/pulumi-dns-account/sdks/nodejs @pulumi/pulumi",
          "npm install-scripts approve @pulumi-dns-account/dns-account",
        ]);
        const sdk = JSON.parse(readFileSync(path.join(root, "sdks", "nodejs", "package.json"), "utf8")) as { name: string };
        assert.equal(sdk.name, "@pulumi-dns-account/dns-account", "the package the block approves is the SDK's");
      },
    },
    {
      title: "the SDKs from the repository: pip from a git URL's subdirectory, go get of the module",
      lang: "sh",
      first: 'pip install "git+https://github.com/pulumi-dns-account/pulumi-dns-account#subdirectory=sdks/python"',
      notRun: "GitHub cannot be reached from a test: test/package/sdks.test.ts runs the same pip install from a git+file:// snapshot of the repository and builds the Go module; here each line is held to the repository's folders and module path",
      async run(block) {
        const lines = block.text.split("\n").map((l) => l.trim()).filter((l) => l && !l.startsWith("#"));
        assert.equal(lines.length, 2);
        const pip = /^pip install "git\+https:\/\/github\.com\/pulumi-dns-account\/pulumi-dns-account#subdirectory=([\w/]+)"$/.exec(lines[0]!);
        assert.ok(pip, lines[0]);
        assert.ok(existsSync(path.join(root, pip[1]!, "pyproject.toml")), `${pip[1]} holds a Python project`);
        const go = /^go get (github\.com\/pulumi-dns-account\/pulumi-dns-account\/([\w/]+))@main$/.exec(lines[1]!);
        assert.ok(go, lines[1]);
        assert.match(readFileSync(path.join(root, go[2]!, "go.mod"), "utf8"), new RegExp(`^module ${go[1]!.replace(/\./g, "\\.")}$`, "m"));
      },
    },
    {
      title: "Pulumi YAML: two accounts, an explicit provider",
      lang: "yaml",
      first: "resources:",
      contains: "kids:",
      notRun: "its explicit provider names no baseUrl, so the second account's key goes only to the service's own host (one origin per secret), which a test cannot reach: test/engine/plugin-yaml-cycle.test.ts runs two explicit providers, each on its own account's API key, under the real engine; here the block is checked against the plugin's schema, with the `kidsApiKey` it refers to declared as secret config",
      async run(block) {
        const program = { name: "readme", runtime: "yaml", config: { kidsApiKey: { type: "string", secret: true } }, ...(yaml.load(block.text) as Program) };
        assert.deepEqual(problems(program, SCHEMA), []);
      },
    },
    {
      title: "dns-account export, with an API key in the environment",
      lang: "sh",
      first: "dns-account export > account.json",
      lines: [
        {
          line: "dns-account export > account.json && pulumi import --file account.json",
          run: "dns-account export > account.json",
          reason: "pulumi import needs the pulumi CLI and a stack; the plugin tests read the file back entry by entry (test/provider/plugin)",
        },
      ],
      async run(block) {
        const dir = path.join(tmp, "export");
        mkdirSync(dir);
        await runShell(this, block, { cwd: dir, env: serviceEnv({ DNS_ACCOUNT_API_KEY: "emulator-api-key-user" }) });
        const file = JSON.parse(readFileSync(path.join(dir, "account.json"), "utf8")) as { resources: unknown[] };
        assert.ok(file.resources.length > 0);
        assert.match(readFileSync(path.join(dir, "index.ts"), "utf8"), /new DnsServer\(/);
      },
    },
    {
      title: "the dns-account CLI, at a terminal",
      lang: "sh",
      first: "dns-account login --username me@example.com",
      lines: [
        {
          line: "DNS_ACCOUNT_USERNAME=… DNS_ACCOUNT_PASSWORD=… dns-account login",
          run: 'DNS_ACCOUNT_USERNAME=me@example.com DNS_ACCOUNT_PASSWORD="$PASSWORD" dns-account login',
          reason: "… stands for the reader's own username and password",
        },
        { line: "dns-account export [--format typescript|hcl]", run: "dns-account export", reason: "[…] marks an optional part (the export block runs --format typescript; test/tofu/export-hcl.test.ts --format hcl)" },
        {
          line: "dns-account emulator --port 8787",
          run: null,
          reason: "a server that runs until stopped, on a fixed port: the emulator block starts it on a free port and stops it",
        },
        {
          line: "dns-account login --browser --client-id ID",
          run: null,
          reason: "needs a browser and the reader's OAuth client ID: test/cli/browser-login.test.ts drives it in Chromium",
        },
        {
          line: "dns-account env --shell fish | source",
          run: "if command -v fish >/dev/null; then fish -c 'dns-account env --shell fish | source'; else echo 'no fish here: the fish line is left out' >&2; fi",
          reason: "a fish command line, run by fish (PowerShell's is checked by its grammar in the CLI's env tests)",
        },
      ],
      async run(block) {
        // The reader's account has the device the logs line names.
        const client = createClient({ baseUrl: emu.url, credentials: { username: "me@example.com", password: PASSWORD } });
        try {
          const [server] = await client.dnsServers.list();
          await client.devices.create({ name: "Laptop", device_type: "LINUX", dns_server_id: server!.id });
        } finally {
          await client.close();
        }
        await runShell(this, block, { cwd: home, env: serviceEnv({ TERM: "dumb" }), prompts: [[/Password: /, PASSWORD]] });
      },
    },
    {
      title: "kubectl's exec credential: the command and args of the kubeconfig, as kubectl runs them",
      lang: "yaml",
      first: "users:",
      notRun: "kubectl is not assumed: the test runs the exec entry's command and args as kubectl does, with KUBERNETES_EXEC_INFO naming its apiVersion",
      async run(block) {
        type Exec = { apiVersion: string; command: string; args: string[]; interactiveMode: string };
        const exec = (yaml.load(block.text) as { users: { user: { exec: Exec } }[] }).users[0]!.user.exec;
        const env = serviceEnv({ DNS_ACCOUNT_CONFIG_DIR: path.join(tmp, "kube-config") });
        await run("dns-account", ["login"], { env: { ...env, DNS_ACCOUNT_USERNAME: "me@example.com", DNS_ACCOUNT_PASSWORD: PASSWORD } });
        const info = JSON.stringify({ apiVersion: exec.apiVersion, kind: "ExecCredential", spec: { interactive: false } });
        const { stdout } = await run(exec.command, exec.args, { env: { ...env, KUBERNETES_EXEC_INFO: info } });
        const credential = JSON.parse(stdout) as { apiVersion: string; kind: string; status: { token: string; expirationTimestamp: string } };
        assert.equal(credential.apiVersion, exec.apiVersion);
        assert.equal(credential.kind, "ExecCredential");
        assert.ok(credential.status.token.length > 0);
        assert.ok(Date.parse(credential.status.expirationTimestamp) > Date.now());
      },
    },
    {
      title: "npm run emulator, on a free port, then stopped",
      lang: "sh",
      first: "npm run emulator --",
      lines: [
        {
          line: "npm run emulator -- --port 8787",
          run: "exec npm run emulator -- --port 0",
          reason: "a fixed port may be taken on a shared machine: --port 0 takes a free one and the URL line says which; the server runs until stopped, so the test stops it",
        },
      ],
      async run(block) {
        const command = this.lines![0]!.run!;
        const child: ChildProcess = spawn("bash", ["-c", command], { cwd: clone, env: npmEnv(), detached: true, stdio: ["ignore", "pipe", "pipe"] });
        // Its banner names the command that was run: in a clone there is no dns-account on PATH.
        let said = "";
        const helpLine = new Promise<void>((resolve) => {
          child.stderr!.on("data", (d: Buffer) => {
            said += d.toString();
            if (/lists passwords and keys/.test(said)) resolve();
          });
        });
        try {
          const url = await _waitForLine(child, /listening on (http:\/\/\S+)/);
          await helpLine;
          assert.match(said, /\(npm run emulator -- --help lists passwords and keys\)/, said);
          const res = await fetch(`${url}/swagger/openapi.json`);
          assert.equal(res.status, 200);
          await res.arrayBuffer();
        } finally {
          if (child.exitCode === null && child.signalCode === null) {
            const exited = new Promise((resolve) => child.once("exit", resolve));
            process.kill(-child.pid!, "SIGTERM");
            await exited;
          }
        }
        assert.equal(block.text.split("\n").filter((l) => l.trim() !== "").length, 1, "one command in the block");
      },
    },
    {
      title: "the emulator's API for tests",
      lang: "ts",
      first: 'import { startEmulator } from "pulumi-dns-account/emulator";',
      contains: "emu.inject(",
      async run(block) {
        // A refresh token the reader's test got earlier; revoking an unknown one is a no-op.
        const prelude = `const token = "a-refresh-token-from-the-test";`;
        const out = await runTypeScript("emulator-api", prelude, block, npmEnv());
        assert.match(out, /^\d+ \d+$/m);
      },
    },
  ];

  it("every code block is run by a handler below or listed with its reason; no handler or mapping is stale", () => {
    const unclaimed = blocks.filter((b) => !HANDLERS.some((h) => matches(h, b))).map((b) => `${b.file} line ${b.line} (\`\`\`${b.lang}): ${b.first}`);
    const stale: string[] = [];
    for (const h of HANDLERS) {
      const found = claimed(h);
      if (found.length !== 1) {
        stale.push(`${found.length} blocks match the handler "${h.title}" (${h.lang}: ${h.first})`);
        continue;
      }
      const lines = found[0]!.text.split("\n").map((l) => l.trim());
      for (const m of h.lines ?? []) if (!lines.some((l) => l.startsWith(m.line))) stale.push(`"${h.title}": no line starts with "${m.line}"`);
      for (const p of h.placeholders ?? []) if (!found[0]!.text.includes(p.text)) stale.push(`"${h.title}": no placeholder "${p.text}"`);
    }
    assert.deepEqual(
      { unclaimed, stale },
      { unclaimed: [], stale: [] },
      "each code block of the README and docs/ needs a handler in test/examples/readme-blocks.test.ts: run as written, or mapped with a reason",
    );
  });

  for (const h of HANDLERS) {
    it(`${h.title}${h.notRun ? " (not run as such: see the reason in the test)" : ""}`, async function () {
      await h.run.call(h, blockFor(h), this);
    });
  }
});
