"""Runs a documentation example (argv[1], a whole Pulumi program against pulumi_dns_account) under
Pulumi's unit-test mocks and prints as JSON what reached the mocks: the overview's Python example, run as
written (no engine can run a Python program here; see python_mocks.py)."""

import json
import runpy
import sys

import pulumi


class Mocks(pulumi.runtime.Mocks):
    """The inputs back, plus the ids the example's references read."""

    def __init__(self):
        self.registered = []

    def new_resource(self, args):
        self.registered.append({"type": args.typ, "name": args.name, "inputs": args.inputs})
        outputs = dict(args.inputs)
        if args.typ == "dns-account:index:DnsServer":
            outputs["serverId"] = "srv-1"
        if args.typ == "dns-account:index:Device":
            outputs.update(deviceId="dev-1", dnsAddresses={"dnsOverHttpsUrl": "https://d.example/dns-query/dev-1"})
        return [args.name + "-id", outputs]

    def call(self, args):
        return {}


mocks = Mocks()
pulumi.runtime.set_mocks(mocks, preview=False)


@pulumi.runtime.test
def program():
    runpy.run_path(sys.argv[1], run_name="__main__")
    return pulumi.Output.from_input(None)


program()
print(json.dumps({"registered": mocks.registered}, sort_keys=True))
