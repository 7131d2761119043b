resource "dnsaccount_dns_server" "family" {
  name = "Family"
  settings {
    protection_enabled = true
    block_ttl_seconds  = 10
    blocking_mode {
      mode = "NXDOMAIN"
    }
    user_rules {
      rules = ["||ads.example^", "@@||good.example^"]
    }
    blocked_services = ["tiktok"]
    safe_browsing {
      enabled                 = true
      block_dangerous_domains = true
    }
  }
}

# The account's default server, taken over rather than created (destroy leaves it).
resource "dnsaccount_dns_server" "default" {
  adopt = "default"
}
