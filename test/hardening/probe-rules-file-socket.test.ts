import assert from "node:assert/strict";
import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { createServer, type Server } from "node:net";
import os from "node:os";
import path from "node:path";
import { rulesFromFile } from "../../provider/dns-server/rules";
import { ConfigError } from "../../sdk/errors";
import { _skipBecause } from "../support/helpers";

/**
 * rulesFromFile's documentation promises that a socket is refused as a ConfigError on `path` (issue 22
 * §4), like a FIFO or a device; opening a Unix socket fails with ENXIO before any fstat, and that raw
 * Node error escaped.
 */
describe("probe: rulesFromFile given a Unix socket", () => {
  let dir: string;
  let server: Server | undefined;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), "dns-account-probe-socket-"));
  });
  afterEach(async () => {
    try {
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    } finally {
      server = undefined;
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses a socket, or a symbolic link to one, with a ConfigError on path", async function () {
    if (process.platform === "win32") _skipBecause(this, "a Unix socket path cannot be made on Windows");
    const socket = path.join(dir, "rules.sock");
    server = createServer();
    await new Promise<void>((resolve) => server!.listen(socket, resolve));
    const link = path.join(dir, "rules.txt");
    symlinkSync(socket, link);
    for (const file of [socket, link]) {
      assert.throws(
        () => rulesFromFile(file),
        (err: unknown) => err instanceof ConfigError && err.code === "invalid_config" && err.field === "path" && /socket/.test(err.message),
        file,
      );
    }
  });
});
