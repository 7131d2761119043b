"""A program against the generated Python SDK (pulumi_dns_account), run under Pulumi's unit-test mocks.

The real engine cannot run a Python program on this machine (the Go module proxy refuses
pulumi-language-python), so this stands in for it: `pulumi.runtime.set_mocks` answers each resource
registration in-process, as the engine's monitor would. The program declares a DnsServer and a Device
that uses the server's id, and prints as JSON what the mocks received (type tokens, names, inputs as
sent on the wire) and what the resources' outputs resolved to. test/package/sdks.test.ts checks it.
"""

import json

import pulumi


class Mocks(pulumi.runtime.Mocks):
    """Answers registrations as the provider would: the inputs back, plus the computed outputs."""

    def __init__(self):
        self.registered = []

    def new_resource(self, args):
        self.registered.append({"type": args.typ, "name": args.name, "inputs": args.inputs})
        outputs = dict(args.inputs)
        if args.typ == "dns-account:index:DnsServer":
            outputs.update(serverId="srv-1", isDefault=False, devicesCount=0, deleteOnDestroy=True,
                           effectiveSettings={"protectionEnabled": True, "blockTtlSeconds": 10})
            return ["srv-1", outputs]
        if args.typ == "dns-account:index:Device":
            outputs.update(deviceId="dev-1", deleteOnDestroy=True, linkedIpv4=["192.0.2.1"],
                           dnsAddresses={"dnsOverHttpsUrl": "https://d.example/dns-query/dev-1"},
                           dnsAddressesWithAuth={})
            return ["dev-1", outputs]
        return [args.name + "-id", outputs]

    def call(self, args):
        return {}


mocks = Mocks()
pulumi.runtime.set_mocks(mocks, preview=False)

import pulumi_dns_account as dns  # noqa: E402  (after set_mocks, as Pulumi's testing guide does)


@pulumi.runtime.test
def program():
    server = dns.DnsServer("home", name="Home", settings=dns.DnsServerSettingsArgs(protection_enabled=True))
    device = dns.Device("phone", name="Phone", device_type=dns.DeviceType.IOS, dns_server_id=server.server_id)

    def report(values):
        (server_urn, server_id, protection, device_urn, device_id, device_server, device_type, doh,
         linked) = values
        print(json.dumps({
            "registered": mocks.registered,
            "server": {"urn": server_urn, "serverId": server_id, "effectiveProtectionEnabled": protection},
            "device": {"urn": device_urn, "deviceId": device_id, "dnsServerId": device_server,
                       "deviceType": device_type, "dnsAddresses": {"dnsOverHttpsUrl": doh}, "linkedIpv4": linked},
        }, sort_keys=True))

    return pulumi.Output.all(
        server.urn, server.server_id, server.effective_settings.protection_enabled,
        device.urn, device.device_id, device.dns_server_id, device.device_type,
        # A typed accessor: dns_addresses is an object type of the schema, not a dict.
        device.dns_addresses.apply(lambda addresses: addresses.dns_over_https_url),
        device.linked_ipv4,
    ).apply(report)


program()
