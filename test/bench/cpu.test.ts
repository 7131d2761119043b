import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { childrenOf, cpuMs, marginal, marginalRatio, newChild } from "../../bench/cpu";
import { _skipBecause } from "../support/helpers";

describe("bench: marginal CPU per extra resource", () => {
  it("is (CPU at the largest N − CPU at the smallest N) ÷ ΔN, whatever the order of the sizes", () => {
    assert.equal(marginal([{ n: 100, cpuMs: 700 }, { n: 10, cpuMs: 250 }, { n: 50, cpuMs: 999 }]), 5);
    assert.equal(marginal([{ n: 10, cpuMs: 250 }, { n: 50, cpuMs: 330 }]), 2);
  });

  it("has no value with fewer than two distinct sizes", () => {
    assert.equal(marginal([]), undefined);
    assert.equal(marginal([{ n: 10, cpuMs: 250 }]), undefined);
    assert.equal(marginal([{ n: 10, cpuMs: 250 }, { n: 10, cpuMs: 260 }]), undefined);
  });

  it("marks a ratio over 1.3× the engine floor's marginal, and gives none against a floor that is not positive", () => {
    assert.equal(marginalRatio(2.6, 2), "1.30×");
    assert.equal(marginalRatio(2.62, 2), "**1.31× over**");
    assert.equal(marginalRatio(1, 0), "n/a");
    assert.equal(marginalRatio(undefined, 2), "n/a");
  });

  it("finds a process just started and reads its CPU time from /proc", async function () {
    if (process.platform !== "linux") _skipBecause(this, "the bench reads a process's CPU from /proc, which only Linux has");
    const before = childrenOf();
    const child = spawn(process.execPath, ["-e", "let x = 0; for (let i = 0; i < 2e7; i++) x += i; process.stdout.write('go\\n'); setInterval(() => {}, 1000);"], { stdio: ["ignore", "pipe", "ignore"] });
    try {
      await once(child.stdout!, "data");
      assert.equal(newChild(before), child.pid);
      assert.ok(cpuMs(child.pid!) > 0);
    } finally {
      child.kill();
      if (child.exitCode === null && child.signalCode === null) await once(child, "exit");
    }
  });
});
