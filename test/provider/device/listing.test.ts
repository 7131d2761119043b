import assert from "node:assert/strict";
import sinon from "sinon";
import { type Emulator, startEmulator } from "../../../emulator";
import { read } from "../../../provider/device/lifecycle";
import type { DeviceOutputs } from "../../../provider/schema/types.generated";
import type { ProviderContext } from "../../../provider/shared/lifecycle";
import { createClient } from "../../../sdk";
import * as clientModule from "../../../sdk/client/client";
import { resetSharedSessions } from "../../../sdk/client/shared-session";
import { _closeAll } from "../../support/helpers";

const API_KEY = "key-DEVICE-LISTING-7f3a9c21";

/**
 * A Device read shares one listing of the account's dedicated addresses with the reads that follow, and
 * lists again when a write of this process finished while the listing was on its way. Under writes that
 * never stop, that must not go on for ever: one more listing, then the device's own addresses.
 */
describe("Device read: the shared listing of dedicated addresses under writes that never stop", function () {
  this.timeout(60_000);
  let emu: Emulator;
  const stubs: sinon.SinonStub[] = [];

  before(async () => {
    emu = await startEmulator();
    emu.addApiKey("user@example.com", API_KEY);
  });

  afterEach(() => {
    for (const s of stubs.splice(0)) s.restore();
  });

  after(async () => {
    await _closeAll(
      () => resetSharedSessions(),
      () => emu?.close(),
    );
  });

  it("lists at most twice, then asks for the device's own addresses, and returns them", async () => {
    const dashboard = createClient({ baseUrl: emu.url, apiKey: API_KEY });
    try {
      const [server] = await dashboard.dnsServers.list();
      const device = await dashboard.devices.create({ name: "Listing", device_type: "LINUX", dns_server_id: server!.id });
      const { ip } = await dashboard.dedicatedIpv4.allocate();
      await dashboard.devices.linkDedicatedIpv4(device.id, ip);
      // Every look at the write counter sees a write since the last one: each listing is stale by the time it arrives.
      let writes = 0;
      stubs.push(sinon.stub(clientModule, "writesSoFar").callsFake(() => ++writes));
      const ctx: ProviderContext = { config: { baseUrl: emu.url, apiKey: API_KEY }, allowInsecureHttp: false, warn: () => undefined };
      emu.resetStats();
      const result = await read(ctx, device.id, { deviceId: device.id, name: "Listing" } as unknown as DeviceOutputs);
      assert.deepEqual(result.props?.linkedIpv4, [ip]);
      // GET the device, two listings, then GET the device's own addresses.
      assert.equal(emu.stats.apiCalls, 4);
    } finally {
      await dashboard.close();
    }
  });
});
