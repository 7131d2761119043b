import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import http from "node:http";
import { startEmulator } from "../../../emulator";
import { DEFAULT_API_KEYS, DEFAULT_CLIENTS, DEFAULT_USERS } from "../../../emulator/state";
import { _cleanEnv } from "../../support/helpers";
import { CLI, _cli as cli } from "../_cli";

/** `dns-account emulator` as people run it: help, a taken port, --quiet, Ctrl-C (issue 18 §4). */
describe("dns-account emulator (the tool)", function () {
  this.timeout(60_000);

  it("--help lists the seeded users, their password, the API keys and the OAuth client", async () => {
    const r = await cli(["emulator", "--help"], {});
    assert.equal(r.code, 0);
    for (const u of DEFAULT_USERS) assert.ok(r.stdout.includes(u.username), u.username);
    assert.ok(r.stdout.includes(DEFAULT_USERS[0]!.password));
    for (const k of DEFAULT_API_KEYS) assert.ok(r.stdout.includes(k.key));
    for (const c of DEFAULT_CLIENTS) assert.ok(r.stdout.includes(c.clientId));
    assert.match(r.stdout, /--require-grant-type/);
    assert.match(r.stdout, /--quiet/);
    for (const flag of ["--allow-remote", "--allow-host NAME", "--limit NAME=N"]) assert.ok(r.stdout.includes(flag), flag);
    assert.match(r.stdout, /access_rules, dedicated_ipv4, devices, dns_servers, requests, user_rules/);
    const viaHelp = await cli(["help", "emulator"], {});
    assert.equal(viaHelp.stdout, r.stdout, "help emulator prints the same");
  });

  it("a taken port says so and suggests --port 0 (exit 2)", async () => {
    const taken = await startEmulator();
    try {
      const port = new URL(taken.url).port;
      const r = await cli(["emulator", "--port", port], {});
      assert.equal(r.code, 2);
      assert.match(r.stderr, new RegExp(`port ${port} on 127\\.0\\.0\\.1 is taken: pass --port 0`));
      assert.doesNotMatch(r.stderr, /EADDRINUSE|at .*\.js/, "no stack trace");
    } finally {
      await taken.close();
    }
  });

  it("--quiet prints nothing but the URL, and SIGINT ends it at once (exit 0) with a keep-alive connection open", async () => {
    const child = spawn(process.execPath, [CLI, "emulator", "--port", "0", "--quiet"], { env: _cleanEnv(), stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on("data", (d: Buffer) => {
        stdout += d.toString();
        if (stdout.includes("\n")) resolve(stdout.split("\n")[0]!);
      });
      child.once("exit", (code) => reject(new Error(`exited (${code}) before printing its URL`)));
    });
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
    // A request over a keep-alive connection that stays open: stopping must not wait for it.
    const agent = new http.Agent({ keepAlive: true });
    const status = await new Promise<number>((resolve, reject) => {
      http
        .get(`${url}/oapi/v1/account/limits`, { agent }, (res) => {
          res.resume();
          res.once("end", () => resolve(res.statusCode!));
        })
        .once("error", reject);
    });
    assert.equal(status, 401);
    child.kill("SIGINT");
    assert.equal(await exited, 0);
    agent.destroy();
    assert.equal(stdout, `${url}\n`, "only the URL on stdout");
    assert.equal(stderr, "", "no request log, no banner");
  });
});
