// A program against the generated Java SDK (sdks/java), run under Pulumi's unit-test mocks
// (com.pulumi.test.PulumiTest): the Java counterpart of ../python_mocks.py (the real engine cannot run a
// Java program here: there is no Java language host). test/package/sdks.test.ts runs it as a single
// source file (`java -cp <the SDK's jar and its dependencies> DnsAccountMocks.java`) and checks what it
// prints.
import com.google.gson.GsonBuilder;
import com.pulumi.core.Output;
import com.pulumi.test.Mocks;
import com.pulumi.test.PulumiTest;
import com.pulumi.test.TestResult;
import io.github.pulumidnsaccount.dnsaccount.Device;
import io.github.pulumidnsaccount.dnsaccount.DeviceArgs;
import io.github.pulumidnsaccount.dnsaccount.DnsServer;
import io.github.pulumidnsaccount.dnsaccount.DnsServerArgs;
import io.github.pulumidnsaccount.dnsaccount.enums.DeviceType;
import io.github.pulumidnsaccount.dnsaccount.inputs.DnsServerSettingsArgs;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

public class DnsAccountMocks {
    public static void main(String[] args) {
        List<Map<String, Object>> registered = Collections.synchronizedList(new ArrayList<>());
        Mocks mocks = resource -> {
            registered.add(Map.of("type", resource.type, "name", resource.name, "inputs", resource.inputs));
            Map<String, Object> state = new LinkedHashMap<>(resource.inputs);
            String id = resource.name + "-id";
            if (resource.type.equals("dns-account:index:DnsServer")) {
                id = "srv-1";
                state.put("serverId", id);
                state.put("isDefault", false);
                state.put("devicesCount", 0);
                state.put("deleteOnDestroy", true);
                state.put("effectiveSettings", Map.of("protectionEnabled", true, "blockTtlSeconds", 10));
            } else if (resource.type.equals("dns-account:index:Device")) {
                id = "dev-1";
                state.put("deviceId", id);
                state.put("deleteOnDestroy", true);
                state.put("linkedIpv4", List.of("192.0.2.1"));
                state.put("dnsAddresses", Map.of("dnsOverHttpsUrl", "https://d.example/dns-query/dev-1"));
                state.put("dnsAddressesWithAuth", Map.of());
            }
            return CompletableFuture.completedFuture(Mocks.ResourceResult.of(Optional.of(id), state));
        };
        TestResult result = PulumiTest.withMocks(mocks).runTest(ctx -> {
            var server = new DnsServer("home", DnsServerArgs.builder()
                .name("Home")
                .settings(DnsServerSettingsArgs.builder().protectionEnabled(true).build())
                .build());
            var device = new Device("phone", DeviceArgs.builder()
                .name("Phone")
                .deviceType(DeviceType.IOS)
                .dnsServerId(server.serverId())
                .build());
            ctx.export("serverUrn", server.urn());
            ctx.export("serverId", server.serverId());
            ctx.export("effectiveProtectionEnabled", server.effectiveSettings().applyValue(s -> s.protectionEnabled().orElse(null)));
            ctx.export("deviceUrn", device.urn());
            ctx.export("deviceId", device.deviceId());
            ctx.export("dnsServerId", device.dnsServerId());
            ctx.export("deviceType", device.deviceType());
            ctx.export("dnsOverHttpsUrl", device.dnsAddresses().applyValue(addresses -> addresses.dnsOverHttpsUrl().orElse(null)));
            ctx.export("linkedIpv4", device.linkedIpv4());
        }).throwOnError();
        Map<String, Object> server = new LinkedHashMap<>();
        server.put("urn", value(result, "serverUrn"));
        server.put("serverId", value(result, "serverId"));
        server.put("effectiveProtectionEnabled", value(result, "effectiveProtectionEnabled"));
        Map<String, Object> device = new LinkedHashMap<>();
        device.put("urn", value(result, "deviceUrn"));
        device.put("deviceId", value(result, "deviceId"));
        device.put("dnsServerId", value(result, "dnsServerId"));
        device.put("deviceType", value(result, "deviceType"));
        device.put("dnsAddresses", Map.of("dnsOverHttpsUrl", value(result, "dnsOverHttpsUrl")));
        device.put("linkedIpv4", value(result, "linkedIpv4"));
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("registered", registered);
        report.put("server", server);
        report.put("device", device);
        System.out.println(new GsonBuilder().serializeNulls().create().toJson(report));
        PulumiTest.cleanup();
    }

    private static Object value(TestResult result, String name) {
        return PulumiTest.extractValue(result.output(name));
    }
}
