import {
  to = dnsaccount_dedicated_ipv4.spare
  id = "203.0.113.7"
}

resource "dnsaccount_dedicated_ipv4" "spare" {}
