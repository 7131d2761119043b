// A program against the generated Go SDK (sdks/go/dnsaccount), run under Pulumi's unit-test mocks: the
// Go counterpart of ../python_mocks.py (the real engine cannot run a Go program here: the Go module
// proxy refuses pulumi-language-go). Its go.mod points the SDK's module at the repository's sdks/go;
// test/package/sdks.test.ts runs it (`go run .`) and checks what it prints.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"sync"

	dns "github.com/pulumi-dns-account/pulumi-dns-account/sdks/go/dnsaccount"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

type mocks struct {
	mu         sync.Mutex
	registered []map[string]any
}

func (m *mocks) NewResource(args pulumi.MockResourceArgs) (string, resource.PropertyMap, error) {
	inputs := args.Inputs.Mappable()
	m.mu.Lock()
	m.registered = append(m.registered, map[string]any{"type": args.TypeToken, "name": args.Name, "inputs": inputs})
	m.mu.Unlock()
	outputs := map[string]any{}
	for k, v := range inputs {
		outputs[k] = v
	}
	id := args.Name + "-id"
	switch args.TypeToken {
	case "dns-account:index:DnsServer":
		id = "srv-1"
		outputs["serverId"] = id
		outputs["isDefault"] = false
		outputs["devicesCount"] = 0
		outputs["deleteOnDestroy"] = true
		outputs["effectiveSettings"] = map[string]any{"protectionEnabled": true, "blockTtlSeconds": 10}
	case "dns-account:index:Device":
		id = "dev-1"
		outputs["deviceId"] = id
		outputs["deleteOnDestroy"] = true
		outputs["linkedIpv4"] = []any{"192.0.2.1"}
		outputs["dnsAddresses"] = map[string]any{"dnsOverHttpsUrl": "https://d.example/dns-query/dev-1"}
		outputs["dnsAddressesWithAuth"] = map[string]any{}
	}
	return id, resource.NewPropertyMapFromMap(outputs), nil
}

func (m *mocks) Call(pulumi.MockCallArgs) (resource.PropertyMap, error) {
	return resource.PropertyMap{}, nil
}

func main() {
	m := &mocks{}
	err := pulumi.RunErr(func(ctx *pulumi.Context) error {
		server, err := dns.NewDnsServer(ctx, "home", &dns.DnsServerArgs{
			Name:     pulumi.String("Home"),
			Settings: &dns.DnsServerSettingsArgs{ProtectionEnabled: pulumi.Bool(true)},
		})
		if err != nil {
			return err
		}
		device, err := dns.NewDevice(ctx, "phone", &dns.DeviceArgs{
			Name:        pulumi.String("Phone"),
			DeviceType:  dns.DeviceTypeIOS,
			DnsServerId: server.ServerId,
		})
		if err != nil {
			return err
		}
		report := pulumi.All(server.URN(), server.ServerId, server.EffectiveSettings.ProtectionEnabled(),
			device.URN(), device.DeviceId, device.DnsServerId, device.DeviceType, device.DnsAddresses.DnsOverHttpsUrl(), device.LinkedIpv4,
		).ApplyT(func(v []any) (string, error) {
			m.mu.Lock()
			defer m.mu.Unlock()
			out, err := json.Marshal(map[string]any{
				"registered": m.registered,
				"server":     map[string]any{"urn": v[0], "serverId": v[1], "effectiveProtectionEnabled": v[2]},
				"device": map[string]any{"urn": v[3], "deviceId": v[4], "dnsServerId": v[5], "deviceType": v[6],
					"dnsAddresses": map[string]any{"dnsOverHttpsUrl": v[7]}, "linkedIpv4": v[8]},
			})
			if err == nil {
				fmt.Println(string(out))
			}
			return string(out), err
		})
		ctx.Export("report", report)
		return nil
	}, pulumi.WithMocks("project", "stack", m))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
