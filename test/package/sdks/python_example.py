"""Runs documentation examples (argv[1:], whole Pulumi programs against pulumi_dns_account) under
Pulumi's unit-test mocks and prints as JSON, for each, what reached the mocks: the registrations and the
function calls. The overview's Python example and the schema's examples run this way, as written (no
engine can run a Python program here; see python_mocks.py). The config key `accountPassword` (which the
Token example reads as a secret) is set; the functions answer with one item each."""

import json
import runpy
import sys

import pulumi
from pulumi.runtime import config as runtime_config

# What the schema's functions return, in the wire's (the schema's) names.
CALLS = {
    "dns-account:index:getFilterLists": {"filterLists": [{
        "filterId": "adguard_dns_filter", "name": "AdGuard DNS filter", "description": "Ads and trackers.",
        "homepageUrl": "https://filters.example/", "sourceUrl": "https://filters.example/source.txt",
        "downloadUrl": "https://filters.example/filter.txt", "rulesCount": 10, "tags": ["purpose:general"],
        "timeUpdated": "2026-01-01T00:00:00Z", "categories": [{"category": "GENERAL", "description": "General"}],
    }]},
    "dns-account:index:getWebServices": {"webServices": [{"id": "tiktok", "name": "TikTok", "iconSvg": "<svg/>"}]},
    "dns-account:index:getParentalControlCategories": {"categories": [{"id": "gambling"}]},
    "dns-account:index:getAccountLimits": {key: {"limit": 10, "used": 1} for key in
                                           ("accessRules", "dedicatedIpv4", "devices", "dnsServers", "requests", "userRules")},
}


class Mocks(pulumi.runtime.Mocks):
    """The inputs back, plus the outputs the examples read."""

    def __init__(self):
        self.registered = []
        self.calls = []

    def new_resource(self, args):
        self.registered.append({"type": args.typ, "name": args.name, "inputs": args.inputs})
        outputs = dict(args.inputs)
        if args.typ == "dns-account:index:DnsServer":
            outputs["serverId"] = "srv-1"
        if args.typ == "dns-account:index:Device":
            outputs.update(deviceId="dev-1", dnsAddresses={"dnsOverHttpsUrl": "https://d.example/dns-query/dev-1"})
        if args.typ == "dns-account:index:DedicatedIpv4":
            outputs["ip"] = "203.0.113.7"
        if args.typ == "dns-account:index:Token":
            outputs.update(accessToken="access", refreshToken="refresh", tokenType="bearer", baseUrl="https://api.example",
                           expiresAt="2026-01-01T00:00:00Z", issuedAt="2025-12-01T00:00:00Z",
                           renewedAt="2025-12-01T00:00:00Z", mode="password", revokeOnDelete=True)
        return [args.name + "-id", outputs]

    def call(self, args):
        self.calls.append(args.token)
        return CALLS.get(args.token, {})


def run(path):
    """One example under fresh mocks: what it registered and called."""
    mocks = Mocks()
    pulumi.runtime.set_mocks(mocks, preview=False)
    runtime_config.set_all_config({"project:accountPassword": "example-password"}, ["project:accountPassword"])

    @pulumi.runtime.test
    def program():
        runpy.run_path(path, run_name="__main__")
        return pulumi.Output.from_input(None)

    program()
    return {"registered": mocks.registered, "calls": mocks.calls}


reports = [run(path) for path in sys.argv[1:]]
# One program (the overview's): its report alone, as before; several: a list in argv's order.
print(json.dumps(reports[0] if len(reports) == 1 else reports, sort_keys=True))
