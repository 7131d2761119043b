"""A home network's DNS: one DNS server with its filtering settings and a laptop that uses it.

`pulumi up` runs this file as the program (see README.md).
"""

import pulumi
import pulumi_dns_account as dns


def home_network() -> None:
    """Declares the resources and exports their ids and addresses."""
    config = pulumi.Config()
    server_name = config.get("serverName") or "Home"
    block_ttl = config.get_int("blockTtlSeconds")
    if block_ttl is None:
        block_ttl = 60

    # Reference data and quotas, read from the account at preview time.
    limits = dns.get_account_limits()
    services = {s.id for s in dns.get_web_services().web_services}
    security_lists = [f.filter_id for f in dns.get_filter_lists().filter_lists if "purpose:security" in f.tags]
    blocked = sorted(services & {"tiktok"})

    home = dns.DnsServer(
        "home",
        name=server_name,
        settings=dns.DnsServerSettingsArgs(
            protection_enabled=True,
            block_ttl_seconds=block_ttl,
            blocking_mode=dns.BlockingModeArgs(mode=dns.BlockingModeKind.NXDOMAIN),
            user_rules=dns.UserRulesArgs(enabled=True, rules=["||ads.example^", "@@||bank.example^$important"]),
            filter_lists=dns.FilterListsArgs(enabled=True, ids=security_lists),
            blocked_services=blocked,
            safe_browsing=dns.SafeBrowsingArgs(enabled=True, block_newly_registered_domains=True),
        ),
    )

    laptop = dns.Device(
        "laptop",
        name="Laptop",
        device_type=dns.DeviceType.LINUX,
        dns_server_id=home.server_id,
        settings=dns.DeviceSettingsArgs(protection_enabled=True),
    )

    pulumi.export("serverId", home.server_id)
    pulumi.export("deviceId", laptop.device_id)
    pulumi.export("laptopAddresses", laptop.dns_addresses)
    # The addresses that embed the device's DNS-over-HTTPS password: a secret output.
    pulumi.export("laptopAddressesWithAuth", laptop.dns_addresses_with_auth)
    pulumi.export("blockedServices", blocked)
    pulumi.export("devicesInUse", limits.devices.used)


if __name__ == "__main__":
    home_network()
