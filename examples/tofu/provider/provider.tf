terraform {
  required_providers {
    dnsaccount = {
      source = "registry.opentofu.org/pulumi-dns-account/dnsaccount"
    }
  }
}

# Credentials from the environment (DNS_ACCOUNT_API_KEY, or DNS_ACCOUNT_USERNAME with
# DNS_ACCOUNT_PASSWORD) or from the default profile of `dns-account login`.
provider "dnsaccount" {}
