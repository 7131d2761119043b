import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import path from "node:path";
import { parentGone, procStat } from "../../../provider/tofu/parent";
import { _useTempDirs } from "../../support/temp";

const MODULE = path.join(__dirname, "..", "..", "..", "provider", "tofu", "parent.js");

/**
 * How the OpenTofu face tells that tofu is gone (issue 34) when a connection to its port closes: no
 * longer its parent, or tofu a zombie or exiting (`PF_EXITING`). The end-to-end case, tofu killed with
 * SIGKILL, is test/tofu/killed.test.ts.
 */
describe("tofu face: whether tofu, the provider's parent, is gone", () => {
  const tmp = _useTempDirs();

  it("reads /proc/<pid>/stat: state, the live parent and the kernel flags", function () {
    const self = procStat("self");
    if (!self) {
      console.log("skipped: no /proc here (not Linux)");
      return this.skip();
    }
    assert.equal(self.ppid, process.ppid);
    assert.match(self.state, /^[RS]$/);
    assert.equal(self.flags & 0x4, 0, "a running process is not exiting");
    assert.equal(procStat(2 ** 22 + 1), undefined, "no such process");
  });

  it("the parent alive and still the parent: not gone; another process, or none: gone", () => {
    assert.equal(parentGone(process.ppid), false);
    assert.equal(parentGone(process.pid), true, "not the parent");
    assert.equal(parentGone(2 ** 22 + 1), true, "no such process");
  });

  it("a child whose parent has exited (re-parented) finds it gone", function () {
    if (!procStat("self")) {
      console.log("skipped: no /proc here (not Linux)");
      return this.skip();
    }
    // sh starts node in the background, waits until node has read its parent (a line on the FIFO "ready"),
    // and exits. node reads a FIFO that only sh holds open for writing: its end is the event that sh is
    // gone. node then asks about the parent it had.
    const script = `const { parentGone } = require(${JSON.stringify(MODULE)}); const fs = require("node:fs"); const first = process.ppid;
process.stdin.on("end", () => process.stdout.write(String(first !== 1) + " " + String(parentGone(first)))); process.stdin.resume();
fs.writeSync(4, "ready\\n"); fs.closeSync(4);`;
    const dir = tmp("dns-account-parent-");
    const alive = path.join(dir, "sh-alive");
    const ready = path.join(dir, "ready");
    execFileSync("mkfifo", [alive, ready]);
    const out = execFileSync("sh", ["-c", 'exec 3<>"$1"; "$3" -e "$4" <"$1" 3>&- 4>"$2" & read line <"$2"; exit 0', "sh", alive, ready, process.execPath, script], { encoding: "utf8" });
    assert.equal(out, "true true");
  });
});
