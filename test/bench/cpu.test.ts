import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { childrenOf, cpuMs, marginal, marginalRatio, newChild } from "../../bench/cpu";
import { _skipBecause } from "../support/helpers";

describe("bench: marginal CPU per extra resource", () => {
  it("is the least-squares slope of CPU over N through every sample, whatever their order", () => {
    const exact = marginal([{ n: 100, cpuMs: 700 }, { n: 10, cpuMs: 250 }, { n: 50, cpuMs: 450 }])!;
    assert.ok(Math.abs(exact.perResource - 5) < 1e-9 && exact.se < 1e-9, JSON.stringify(exact));
    // Two rounds, noise of ±10 ms at each size: the slope stays 2 and its error says how sure it is.
    const noisy = marginal([
      { n: 10, cpuMs: 240 }, { n: 10, cpuMs: 260 },
      { n: 50, cpuMs: 320 }, { n: 50, cpuMs: 340 },
      { n: 100, cpuMs: 420 }, { n: 100, cpuMs: 440 },
    ])!;
    assert.ok(Math.abs(noisy.perResource - 2) < 1e-9);
    assert.ok(noisy.se > 0.1 && noisy.se < 0.2, `se ${noisy.se}`);
  });

  it("is not read from the two extreme medians alone: a noisy middle size moves it", () => {
    const a = marginal([{ n: 10, cpuMs: 250 }, { n: 50, cpuMs: 330 }, { n: 100, cpuMs: 430 }])!;
    const b = marginal([{ n: 10, cpuMs: 250 }, { n: 50, cpuMs: 600 }, { n: 100, cpuMs: 430 }])!;
    assert.notEqual(a.perResource, b.perResource);
    assert.ok(b.se > a.se);
  });

  it("has no value with fewer than two distinct sizes, and no error bound with only two samples", () => {
    assert.equal(marginal([]), undefined);
    assert.equal(marginal([{ n: 10, cpuMs: 250 }]), undefined);
    assert.equal(marginal([{ n: 10, cpuMs: 250 }, { n: 10, cpuMs: 260 }]), undefined);
    assert.deepEqual(marginal([{ n: 10, cpuMs: 250 }, { n: 50, cpuMs: 330 }]), { perResource: 2, se: Infinity });
  });

  it("marks a ratio over 1.3× only when the range both errors allow is over, and gives none against a floor that is not positive", () => {
    assert.equal(marginalRatio({ perResource: 2.6, se: 0 }, { perResource: 2, se: 0 }), "1.30× (1.30–1.30)");
    assert.equal(marginalRatio({ perResource: 2.8, se: 0 }, { perResource: 2, se: 0 }), "1.40× (1.40–1.40) **over**");
    assert.equal(marginalRatio({ perResource: 3, se: 0.1 }, { perResource: 2, se: 0.1 }), "1.50× (1.27–1.78) over?");
    assert.equal(marginalRatio({ perResource: 1, se: 0.6 }, { perResource: 0.5, se: 0.3 }), "2.00× (0.00–∞) over?");
    assert.equal(marginalRatio({ perResource: 1, se: 0 }, { perResource: 0, se: 0 }), "n/a");
    assert.equal(marginalRatio(undefined, { perResource: 2, se: 0 }), "n/a");
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
