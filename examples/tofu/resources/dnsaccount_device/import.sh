# The device's id, as `dns-account devices` lists it.
tofu import dnsaccount_device.tv 4e5f6a7b
