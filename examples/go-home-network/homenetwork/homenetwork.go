// Package homenetwork declares a home network's DNS: one DNS server with its filtering settings and a
// laptop that uses it.
package homenetwork

import (
	"slices"

	"github.com/pulumi-dns-account/pulumi-dns-account/sdks/go/dnsaccount"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

// Program declares the resources and exports their ids and addresses.
func Program(ctx *pulumi.Context) error {
	cfg := config.New(ctx, "")
	serverName := cfg.Get("serverName")
	if serverName == "" {
		serverName = "Home"
	}
	blockTTL, err := cfg.TryInt("blockTtlSeconds")
	if err != nil {
		blockTTL = 60
	}

	// Reference data and quotas, read from the account at preview time.
	limits, err := dnsaccount.GetAccountLimits(ctx, &dnsaccount.GetAccountLimitsArgs{})
	if err != nil {
		return err
	}
	services, err := dnsaccount.GetWebServices(ctx, &dnsaccount.GetWebServicesArgs{})
	if err != nil {
		return err
	}
	lists, err := dnsaccount.GetFilterLists(ctx, &dnsaccount.GetFilterListsArgs{})
	if err != nil {
		return err
	}
	securityLists := pulumi.StringArray{}
	for _, l := range lists.FilterLists {
		if slices.Contains(l.Tags, "purpose:security") {
			securityLists = append(securityLists, pulumi.String(l.FilterId))
		}
	}
	blocked := pulumi.StringArray{}
	for _, s := range services.WebServices {
		if s.Id == "tiktok" {
			blocked = append(blocked, pulumi.String(s.Id))
		}
	}

	home, err := dnsaccount.NewDnsServer(ctx, "home", &dnsaccount.DnsServerArgs{
		Name: pulumi.String(serverName),
		Settings: &dnsaccount.DnsServerSettingsArgs{
			ProtectionEnabled: pulumi.Bool(true),
			BlockTtlSeconds:   pulumi.Int(blockTTL),
			BlockingMode:      &dnsaccount.BlockingModeArgs{Mode: dnsaccount.BlockingModeKindNxdomain},
			UserRules: &dnsaccount.UserRulesArgs{
				Enabled: pulumi.Bool(true),
				Rules:   pulumi.StringArray{pulumi.String("||ads.example^"), pulumi.String("@@||bank.example^$important")},
			},
			FilterLists:     &dnsaccount.FilterListsArgs{Enabled: pulumi.Bool(true), Ids: securityLists},
			BlockedServices: blocked,
			SafeBrowsing:    &dnsaccount.SafeBrowsingArgs{Enabled: pulumi.Bool(true), BlockNewlyRegisteredDomains: pulumi.Bool(true)},
		},
	})
	if err != nil {
		return err
	}

	laptop, err := dnsaccount.NewDevice(ctx, "laptop", &dnsaccount.DeviceArgs{
		Name:        pulumi.String("Laptop"),
		DeviceType:  dnsaccount.DeviceTypeLinux,
		DnsServerId: home.ServerId,
		Settings:    &dnsaccount.DeviceSettingsArgs{ProtectionEnabled: pulumi.Bool(true)},
	})
	if err != nil {
		return err
	}

	ctx.Export("serverId", home.ServerId)
	ctx.Export("deviceId", laptop.DeviceId)
	ctx.Export("laptopAddresses", laptop.DnsAddresses)
	// The addresses that embed the device's DNS-over-HTTPS password: a secret output.
	ctx.Export("laptopAddressesWithAuth", laptop.DnsAddressesWithAuth)
	ctx.Export("blockedServices", blocked)
	ctx.Export("devicesInUse", pulumi.Int(limits.Devices.Used))
	return nil
}
