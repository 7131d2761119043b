resource "dnsaccount_dns_server" "home" {
  name = "Home"
}

resource "dnsaccount_device" "phone" {
  name          = "Phone"
  device_type   = "ANDROID"
  dns_server_id = dnsaccount_dns_server.home.server_id
  settings {
    protection_enabled   = true
    detect_doh_auth_only = true
  }
  # Any change resets the device's DNS-over-HTTPS password.
  doh_password_keepers = {
    rotated = "2026-12"
  }
}

output "phone_dot" {
  value = dnsaccount_device.phone.dns_addresses.dns_over_tls_url
}

output "phone_doh_with_password" {
  value     = dnsaccount_device.phone.dns_addresses_with_auth.dns_over_https_with_auth_url
  sensitive = true
}
