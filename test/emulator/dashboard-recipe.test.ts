import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { createClient } from "../../sdk";
import { _cleanEnv, _repoRoot, _useEmulator } from "../support/helpers";

/** The paragraph of docs/emulator.md that says how to make a "dashboard" edit. */
function recipe(): string {
  const page = readFileSync(path.join(_repoRoot(), "docs", "emulator.md"), "utf8");
  const start = page.indexOf("**A change made in the dashboard.**");
  assert.ok(start >= 0, "docs/emulator.md has the dashboard recipe");
  const end = page.indexOf("\n\n", start);
  return page.slice(start, end < 0 ? undefined : end);
}

function bash(command: string): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile("bash", ["-c", command], { env: _cleanEnv({ http_proxy: undefined, HTTP_PROXY: undefined, all_proxy: undefined, ALL_PROXY: undefined }) }, (err, stdout, stderr) =>
      err ? reject(new Error(`${command}: ${stderr}`)) : resolve(stdout),
    ),
  );
}

/** Issue 32 §5: the documented recipe for an out-of-band "dashboard" edit works as written. */
describe("emulator: the dashboard-edit recipe of docs/emulator.md", () => {
  const emu = _useEmulator();

  it("its curl calls, with the published user key, find the server and change its settings behind the program's back", async () => {
    const commands = [...recipe().matchAll(/`(curl [^`]+)`/g)].map((m) => m[1]!);
    assert.equal(commands.length, 2, "a listing call, then the edit");
    const [list, edit] = commands as [string, string];
    for (const c of commands) {
      assert.ok(c.includes("Authorization: ApiKey emulator-api-key-user"), "the user's published key");
      assert.ok(c.includes("http://127.0.0.1:8787/"), "the emulator's own address");
    }
    const port = String(emu().port);
    const servers = JSON.parse(await bash(list.replace(":8787/", `:${port}/`))) as { id: string; settings: Record<string, unknown> }[];
    assert.equal(servers.length, 1);
    const id = servers[0]!.id;
    assert.notEqual(servers[0]!.settings.block_ttl_seconds, 3600);
    await bash(`${edit.replace(":8787/", `:${port}/`).replace("/dns_servers/ID/", `/dns_servers/${id}/`)} -o /dev/null -w '%{http_code}' | grep -qx 200`);

    // What a program then reads (refresh) is the edit: the same account, whatever made the change.
    const program = createClient({ baseUrl: emu().url, credentials: { username: "user@example.com", password: "emulator-password" } });
    try {
      const live = (await program.dnsServers.getSettings(id)) as unknown as Record<string, unknown>;
      assert.equal(live.block_ttl_seconds, 3600);
      assert.deepEqual({ ...live, block_ttl_seconds: 0 }, { ...servers[0]!.settings, block_ttl_seconds: 0 }, "the rest of the settings is kept (merged)");
    } finally {
      await program.close();
    }
  });
});
