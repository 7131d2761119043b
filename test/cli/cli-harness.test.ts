import assert from "node:assert/strict";
import { _cli as cli } from "./_cli";

/** The CLI test harness itself: a run is decided by the CLI's exit, not by when it closed its input. */
describe("the CLI test harness", () => {
  it("input the command never reads (more than a pipe holds) is no failure: EPIPE on stdin is ignored", async () => {
    const r = await cli(["--version"], {}, "x".repeat(4 * 1024 * 1024));
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /\d+\.\d+\.\d+/);
  });
});
