import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { gunzipSync } from "node:zlib";
import { _repoRoot } from "../support/helpers";
import { _useTempDirs } from "../support/temp";

const run = promisify(execFile);
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const root = _repoRoot();

interface TarEntry {
  name: string;
  uid: number;
  gid: number;
  uname: string;
  gname: string;
  data: Buffer;
}

/** The entries of an uncompressed tar as written (ustar fields; a pax header's own entry is kept as one). */
function tarEntries(data: Buffer): TarEntry[] {
  const field = (h: Buffer, at: number, len: number): string => h.subarray(at, at + len).toString("latin1").replace(/\0.*$/s, "").trim();
  const entries: TarEntry[] = [];
  for (let at = 0; at + 512 <= data.length; ) {
    const h = data.subarray(at, at + 512);
    if (h.every((b) => b === 0)) break;
    const size = parseInt(field(h, 124, 12) || "0", 8);
    const prefix = field(h, 345, 155);
    entries.push({
      name: `${prefix ? `${prefix}/` : ""}${field(h, 0, 100)}`,
      uid: parseInt(field(h, 108, 8) || "0", 8),
      gid: parseInt(field(h, 116, 8) || "0", 8),
      uname: field(h, 265, 32),
      gname: field(h, 297, 32),
      data: data.subarray(at + 512, at + 512 + size),
    });
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return entries;
}

/**
 * Issue 32 §4: the npm package as `npm pack` writes it from the built checkout carries nothing of the
 * build machine: no absolute path of the checkout or of the builder's home in any file (the bundles'
 * code caches included: V8 keeps the name a script was compiled under), and no builder's user or group
 * in its tar entries.
 */
describe("the npm tarball carries nothing of the build machine", function () {
  this.timeout(120_000);
  const tmp = _useTempDirs();
  let entries: TarEntry[];

  before(async () => {
    const dir = tmp("dns-account-npm-tarball-");
    await run(npm, ["pack", "--pack-destination", dir, "--ignore-scripts"], { cwd: root });
    const tarball = readdirSync(dir).find((f) => f.endsWith(".tgz"))!;
    entries = tarEntries(gunzipSync(readFileSync(path.join(dir, tarball))));
  });

  it("no file holds the checkout's absolute path or the builder's home (the code caches included)", () => {
    const caches = entries.filter((e) => e.name.endsWith(".bundle.js.cache")).map((e) => e.name);
    assert.deepEqual(caches.sort(), ["package/dist/provider/dynamic.bundle.js.cache", "package/dist/provider/plugin/plugin.bundle.js.cache", "package/dist/provider/tofu/tofu.bundle.js.cache"]);
    const needles = [root, path.join(root, "dist")];
    if (os.homedir() !== "/") needles.push(`${os.homedir()}/`);
    const found = entries.flatMap((e) => needles.filter((n) => e.data.includes(n)).map((n) => `${e.name}: ${n}`));
    assert.deepEqual(found, []);
  });

  it("every tar entry has uid and gid 0 and no user or group name", () => {
    assert.ok(entries.length > 10);
    const builder = entries.filter((e) => e.uid !== 0 || e.gid !== 0 || e.uname !== "" || e.gname !== "").map((e) => `${e.name}: ${e.uid}/${e.gid} ${e.uname}/${e.gname}`);
    assert.deepEqual(builder, []);
  });
});
