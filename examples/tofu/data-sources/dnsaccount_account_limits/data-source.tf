data "dnsaccount_account_limits" "current" {}

output "devices_left" {
  value = data.dnsaccount_account_limits.current.devices.limit - data.dnsaccount_account_limits.current.devices.used
}
