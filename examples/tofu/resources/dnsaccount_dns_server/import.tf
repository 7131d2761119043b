import {
  to = dnsaccount_dns_server.office
  id = "0a1b2c3d"
}

resource "dnsaccount_dns_server" "office" {
  name = "Office"
}
