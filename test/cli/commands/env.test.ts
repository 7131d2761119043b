import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { exportLine, type Shell } from "../../../cli/commands/env";
import { _cli as cli } from "../_cli";

/** Values a server or a credential command could send, each built to break out of some shell's quotes. */
const HOSTILE = [
  "it's",
  "'",
  "''",
  `"double" and 'single'`,
  "$(touch pwned-dollar)",
  "`touch pwned-backtick`",
  "${HOME}$HOME %HOME% $env:HOME",
  "a\nb\n",
  "\n$(touch pwned-newline)\n",
  "\u2018;touch pwned-q1;\u2018",
  "\u2019); touch pwned-q2; (\u2019",
  "\u201a\u201b\u2018\u2019'",
  "x\u2019\u2019y",
  "back\\slash\\",
  "\\'; touch pwned-fish; echo \\'",
  "\\\\'\\",
  "tab\there; semi; pipe | amp & lt < gt >",
  "",
  "unicode ✓ — ünïcödé",
];

/** Runs `script` (what `dns-account env --shell <shell>` would print) as a user would, then reads the exported variables back from a child process. */
function exported(shell: "bash" | "sh" | "fish", script: string, names: string[], cwd: string): (string | undefined)[] {
  const file = path.join(cwd, "env.out");
  writeFileSync(file, script);
  const reader = `${JSON.stringify(process.execPath)} -e 'process.stdout.write(JSON.stringify(${JSON.stringify(names)}.map((n) => process.env[n] ?? null)))'`;
  const args =
    shell === "fish"
      ? ["-c", `source ${JSON.stringify(file)}; and ${reader}`]
      : // eval "$(dns-account env)", as the usage says.
        ["-c", `eval "$(cat ${JSON.stringify(file)})" && ${reader}`];
  const r = spawnSync(shell, args, { cwd, encoding: "utf8", env: { PATH: process.env.PATH, HOME: cwd, LANG: "C.UTF-8" } });
  assert.equal(r.status, 0, `${shell} failed: ${r.stderr}`);
  return (JSON.parse(r.stdout) as (string | null)[]).map((v) => v ?? undefined);
}

const has = (command: string): boolean => spawnSync(command, ["-c", "true"]).status === 0;

/**
 * A PowerShell single-quoted string literal, read by the tokenizer's own rule: it starts at any of the
 * five single quotes (' U+2018 U+2019 U+201A U+201B) and ends at the next one, except that two in a
 * row stand for one character (the second). Returns the value and where the literal ended.
 */
function readPowerShellSingleQuoted(text: string, start: number): { value: string; end: number } {
  const quote = (c: string | undefined) => c !== undefined && "'\u2018\u2019\u201a\u201b".includes(c);
  assert.ok(quote(text[start]), "a single-quoted string starts with a single quote");
  let value = "";
  let i = start + 1;
  for (;;) {
    assert.ok(i < text.length, "the string is closed");
    const c = text[i]!;
    if (quote(c)) {
      if (!quote(text[i + 1])) return { value, end: i + 1 };
      value += text[i + 1];
      i += 2;
      continue;
    }
    value += c;
    i++;
  }
}

/**
 * `$env:NAME = <string> [+ <string>]…` and nothing after it, read by PowerShell's grammar: the name and
 * the value PowerShell would assign. A string is a single-quoted literal, or "`n" / "`r" (a line break
 * in a double-quoted string). The line holds no line break: `Invoke-Expression` runs its input line by
 * line, so a value's line break would make the rest of the value a command of its own.
 */
function powerShellAssignment(line: string): { name: string; value: string } {
  assert.doesNotMatch(line, /[\r\n]/, "one line per variable");
  const head = /^\$env:([A-Z_][A-Z0-9_]*) = /.exec(line);
  assert.ok(head, `an assignment to $env: ${JSON.stringify(line)}`);
  let value = "";
  let at = head[0].length;
  for (;;) {
    const escape = /^"`([nr])"/.exec(line.slice(at));
    if (escape) {
      value += escape[1] === "n" ? "\n" : "\r";
      at += escape[0].length;
    } else {
      const literal = readPowerShellSingleQuoted(line, at);
      value += literal.value;
      at = literal.end;
    }
    if (!line.startsWith(" + ", at)) break;
    at += 3;
  }
  assert.equal(line.slice(at), "", `nothing runs after the string: ${JSON.stringify(line.slice(at))}`);
  return { name: head[1]!, value };
}

describe("dns-account env: what the service or a credential command sends cannot steer the shell", function () {
  this.timeout(60_000);
  let dir: string;
  before(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), "dns-account-shells-"));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));
  afterEach(() => assert.deepEqual(readdirSync(dir).filter((f) => f.startsWith("pwned")), [], "no command ran"));

  const names = HOSTILE.map((_, i) => `DNS_ACCOUNT_TEST_${i}`);
  const script = (shell: Shell) => HOSTILE.map((v, i) => exportLine(shell, names[i]!, v)).join("\n") + "\n";

  for (const shell of ["bash", "sh"] as const) {
    it(`${shell}: eval gives each variable exactly the value, whatever quotes, $(), backticks, newlines or backslashes it holds`, function () {
      if (!has(shell)) {
        console.log(`      skipped: ${shell} is not installed`);
        this.skip();
      }
      assert.deepEqual(exported(shell, script(shell), names, dir), HOSTILE);
    });
  }

  it("fish: source gives each variable exactly the value", function () {
    if (!has("fish")) {
      console.log("      skipped: fish is not installed (.ci/run installs Debian's fish)");
      this.skip();
    }
    assert.deepEqual(exported("fish", script("fish"), names, dir), HOSTILE);
  });

  it("PowerShell: every single quote PowerShell knows (' U+2018 U+2019 U+201A U+201B) is doubled and line breaks stay off the line, so each line assigns exactly the value", () => {
    for (const [i, value] of HOSTILE.entries()) {
      const line = exportLine("powershell", names[i]!, value);
      assert.deepEqual(powerShellAssignment(line), { name: names[i], value });
    }
    // The grammar reader itself: an undoubled U+2018 ends the string, and what follows would run.
    assert.throws(() => powerShellAssignment("$env:X = 'a\u2018; calc; \u2018'"), /nothing runs after the string/);
    assert.deepEqual(powerShellAssignment("$env:X = 'a\u2019\u2019b'''"), { name: "X", value: "a\u2019b'" });
    // A value's line break stays off the line: Invoke-Expression would run what follows it as a command.
    assert.equal(exportLine("powershell", "X", "a\nRemove-Item x\r\n"), `$env:X = 'a' + "\`n" + 'Remove-Item x' + "\`r" + '' + "\`n" + ''`);
  });

  describe("through the built bin, with a credential command's token and base URL", () => {
    // Printable ASCII (the only characters a token may have) and a loopback URL with every quote in its path.
    const token = `tok'"$(touch pwned-token)\`touch pwned-tick\`\\;|&<>%{}`;
    const baseUrl = "http://127.0.0.1:9/x\u2018;touch pwned-ps;\u2019'$(touch pwned-url)";
    const command = (o: object) => {
      const file = path.join(dir, `cmd-${Math.random().toString(36).slice(2)}.json`);
      writeFileSync(file, JSON.stringify(o));
      return `cat ${JSON.stringify(file)}`;
    };
    const env = () => ({ DNS_ACCOUNT_CONFIG_DIR: path.join(dir, "store"), DNS_ACCOUNT_CREDENTIAL_COMMAND: command({ accessToken: token, baseUrl }) });

    it("bash and fish get the token and the URL exactly; PowerShell's lines read back to them", async function () {
      const bash = await cli(["env"], env());
      assert.equal(bash.code, 0, bash.stderr);
      assert.deepEqual(exported("bash", bash.stdout, ["DNS_ACCOUNT_ACCESS_TOKEN", "DNS_ACCOUNT_BASE_URL"], dir), [token, baseUrl]);
      const ps = await cli(["env", "--shell", "powershell"], env());
      assert.equal(ps.code, 0, ps.stderr);
      assert.deepEqual(
        ps.stdout.trimEnd().split("\n").map(powerShellAssignment),
        [
          { name: "DNS_ACCOUNT_ACCESS_TOKEN", value: token },
          { name: "DNS_ACCOUNT_BASE_URL", value: baseUrl },
        ],
      );
      if (!has("fish")) {
        console.log("      (fish part skipped: fish is not installed; .ci/run installs Debian's fish)");
        return;
      }
      const fish = await cli(["env", "--shell", "fish"], env());
      assert.equal(fish.code, 0, fish.stderr);
      assert.deepEqual(exported("fish", fish.stdout, ["DNS_ACCOUNT_ACCESS_TOKEN", "DNS_ACCOUNT_BASE_URL"], dir), [token, baseUrl]);
    });

    it("a token or base URL with control or format characters is refused, naming the field, and nothing is printed", async () => {
      const cases: [object, RegExp][] = [
        [{ accessToken: "a\u001b]0;owned\u0007b" }, /"accessToken"/],
        [{ accessToken: "a\nexport X=1" }, /"accessToken"/],
        [{ accessToken: "a\u2018b" }, /"accessToken"/],
        [{ refreshToken: "r\u202Eb" }, /"refreshToken"/],
        [{ accessToken: "ok", baseUrl: "http://127.0.0.1:9/\u202Eevil" }, /"baseUrl"/],
        [{ accessToken: "ok", baseUrl: "http://127.0.0.1:9/\nexport X=1" }, /"baseUrl"/],
      ];
      for (const [output, field] of cases) {
        for (const shell of ["bash", "fish", "powershell"]) {
          const r = await cli(["env", "--shell", shell], { DNS_ACCOUNT_CONFIG_DIR: path.join(dir, "store"), DNS_ACCOUNT_CREDENTIAL_COMMAND: command(output) });
          assert.equal(r.code, 1, JSON.stringify(output));
          assert.equal(r.stdout, "", "nothing printed");
          assert.match(r.stderr, /^dns-account: credential_process: /);
          assert.match(r.stderr, field);
          assert.doesNotMatch(r.stderr, /owned|export X|evil|\u2018|\u202E/, "the value is not echoed");
        }
      }
    });

    it("an access token in the environment with a control character is refused, not exported", async () => {
      const r = await cli(["env"], { DNS_ACCOUNT_CONFIG_DIR: path.join(dir, "store"), DNS_ACCOUNT_ACCESS_TOKEN: "tok\u001b[2Jen", DNS_ACCOUNT_BASE_URL: "http://127.0.0.1:9" });
      assert.equal(r.code, 1);
      assert.equal(r.stdout, "");
      assert.match(r.stderr, /^dns-account: invalid_config: The access token from DNS_ACCOUNT_ACCESS_TOKEN holds characters a token cannot have/);
      assert.ok(!r.stderr.includes("\u001b"));
    });
  });

  it("the bash line is a plain export a POSIX shell reads (sanity: no stray output)", () => {
    assert.equal(exportLine("bash", "A", "x'y"), `export A='x'\\''y'`);
    assert.equal(execFileSync("sh", ["-c", `${exportLine("sh", "A", "x'y")}; printf %s "$A"`]).toString(), "x'y");
    assert.ok(!existsSync(path.join(dir, "pwned-dollar")));
  });
});
