package homenetwork;

import com.pulumi.Context;
import com.pulumi.Pulumi;
import com.pulumi.core.Output;
import io.github.pulumidnsaccount.dnsaccount.Device;
import io.github.pulumidnsaccount.dnsaccount.DeviceArgs;
import io.github.pulumidnsaccount.dnsaccount.DnsServer;
import io.github.pulumidnsaccount.dnsaccount.DnsServerArgs;
import io.github.pulumidnsaccount.dnsaccount.DnsaccountFunctions;
import io.github.pulumidnsaccount.dnsaccount.enums.BlockingModeKind;
import io.github.pulumidnsaccount.dnsaccount.enums.DeviceType;
import io.github.pulumidnsaccount.dnsaccount.inputs.BlockingModeArgs;
import io.github.pulumidnsaccount.dnsaccount.inputs.DeviceSettingsArgs;
import io.github.pulumidnsaccount.dnsaccount.inputs.DnsServerSettingsArgs;
import io.github.pulumidnsaccount.dnsaccount.inputs.FilterListsArgs;
import io.github.pulumidnsaccount.dnsaccount.inputs.SafeBrowsingArgs;
import io.github.pulumidnsaccount.dnsaccount.inputs.UserRulesArgs;
import io.github.pulumidnsaccount.dnsaccount.outputs.DnsAddresses;
import io.github.pulumidnsaccount.dnsaccount.outputs.DnsAddressesWithAuth;
import io.github.pulumidnsaccount.dnsaccount.outputs.FilterList;
import io.github.pulumidnsaccount.dnsaccount.outputs.WebService;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * A home network's DNS: one DNS server with its filtering settings and a laptop that uses it. `pulumi up`
 * runs {@link #main} through Maven (`mvn compile exec:java`, see pom.xml and README.md).
 */
public class App {
    public static void main(String[] args) {
        Pulumi.run(App::homeNetwork);
    }

    /** Declares the resources and exports their ids and addresses. */
    public static void homeNetwork(Context ctx) {
        var config = ctx.config();
        var serverName = config.get("serverName").orElse("Home");
        var blockTtl = config.getInteger("blockTtlSeconds").orElse(60);

        // Reference data and quotas, read from the account at preview time.
        var limits = DnsaccountFunctions.getAccountLimits();
        Output<List<String>> blocked = DnsaccountFunctions.getWebServices().applyValue(result -> result.webServices().stream()
            .map(WebService::id)
            .filter(id -> id.equals("tiktok"))
            .sorted()
            .collect(Collectors.toList()));
        Output<List<String>> securityLists = DnsaccountFunctions.getFilterLists().applyValue(result -> result.filterLists().stream()
            .filter(list -> list.tags().contains("purpose:security"))
            .map(FilterList::filterId)
            .collect(Collectors.toList()));

        var home = new DnsServer("home", DnsServerArgs.builder()
            .name(serverName)
            .settings(DnsServerSettingsArgs.builder()
                .protectionEnabled(true)
                .blockTtlSeconds(blockTtl)
                .blockingMode(BlockingModeArgs.builder().mode(BlockingModeKind.Nxdomain).build())
                .userRules(UserRulesArgs.builder().enabled(true).rules("||ads.example^", "@@||bank.example^$important").build())
                .filterLists(FilterListsArgs.builder().enabled(true).ids(securityLists).build())
                .blockedServices(blocked)
                .safeBrowsing(SafeBrowsingArgs.builder().enabled(true).blockNewlyRegisteredDomains(true).build())
                .build())
            .build());

        var laptop = new Device("laptop", DeviceArgs.builder()
            .name("Laptop")
            .deviceType(DeviceType.Linux)
            .dnsServerId(home.serverId())
            .settings(DeviceSettingsArgs.builder().protectionEnabled(true).build())
            .build());

        ctx.export("serverId", home.serverId());
        ctx.export("deviceId", laptop.deviceId());
        ctx.export("laptopAddresses", laptop.dnsAddresses().applyValue(App::fields));
        // The addresses that embed the device's DNS-over-HTTPS password: a secret output (applyValue keeps it secret).
        ctx.export("laptopAddressesWithAuth", laptop.dnsAddressesWithAuth().applyValue(App::fields));
        ctx.export("blockedServices", blocked);
        ctx.export("devicesInUse", limits.applyValue(result -> result.devices().used()));
    }

    // Pulumi's Java SDK exports maps, lists and scalars but not the SDK's output classes ("Type
    // 'DnsAddresses' is not a supported argument type"): the addresses are exported as a map of the
    // schema's property names to the addresses the service gave.

    private static Map<String, String> fields(DnsAddresses a) {
        return present(Map.of(
            "dnsOverHttpsUrl", a.dnsOverHttpsUrl(),
            "dnsOverTlsUrl", a.dnsOverTlsUrl(),
            "dnsOverQuicUrl", a.dnsOverQuicUrl(),
            "adguardDnsOverHttpsUrl", a.adguardDnsOverHttpsUrl(),
            "adguardDnsOverTlsUrl", a.adguardDnsOverTlsUrl(),
            "adguardDnsOverQuicUrl", a.adguardDnsOverQuicUrl(),
            "adguardVpnDnsOverHttpsUrl", a.adguardVpnDnsOverHttpsUrl(),
            "adguardVpnDnsOverTlsUrl", a.adguardVpnDnsOverTlsUrl(),
            "adguardVpnDnsOverQuicUrl", a.adguardVpnDnsOverQuicUrl()));
    }

    private static Map<String, String> fields(DnsAddressesWithAuth a) {
        return present(Map.of(
            "dnsOverHttpsWithAuthUrl", a.dnsOverHttpsWithAuthUrl(),
            "adguardDnsOverHttpsWithAuthUrl", a.adguardDnsOverHttpsWithAuthUrl(),
            "adguardVpnDnsOverHttpsWithAuthUrl", a.adguardVpnDnsOverHttpsWithAuthUrl()));
    }

    private static Map<String, String> present(Map<String, Optional<String>> fields) {
        var out = new TreeMap<String, String>();
        fields.forEach((name, value) -> value.ifPresent(v -> out.put(name, v)));
        return out;
    }
}
