terraform {
  required_providers {
    dnsaccount = {
      source = "registry.opentofu.org/pulumi-dns-account/dnsaccount"
    }
  }
}

provider "dnsaccount" {}

resource "dnsaccount_dns_server" "home" {
  name = "Home"
  settings {
    block_ttl_seconds = 60
    user_rules {
      rules = ["||ads.example^"]
    }
  }
}

resource "dnsaccount_device" "laptop" {
  name          = "Laptop"
  device_type   = "MAC"
  dns_server_id = dnsaccount_dns_server.home.server_id
}

output "laptop_doh" {
  value = dnsaccount_device.laptop.dns_addresses.dns_over_https_url
}
