# A token from the provider's password login (username and password in the provider block or the
# environment), rotated by a change of keepers: the new token is made before the old one is revoked.
resource "dnsaccount_token" "automation" {
  keepers = {
    rotated = "2026-12"
  }
  lifecycle {
    create_before_destroy = true
  }
}

# A resource that uses the token rather than the provider's credentials.
resource "dnsaccount_dns_server" "lab" {
  name = "Lab"
  credentials {
    base_url      = dnsaccount_token.automation.base_url
    refresh_token = dnsaccount_token.automation.refresh_token
  }
}
