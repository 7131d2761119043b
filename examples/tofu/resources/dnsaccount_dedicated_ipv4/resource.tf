resource "dnsaccount_dns_server" "default" {
  adopt = "default"
}

resource "dnsaccount_device" "router" {
  name          = "Router"
  device_type   = "ROUTER"
  dns_server_id = dnsaccount_dns_server.default.server_id
}

# Allocates an address (it counts against the account's quota) and links it to the router.
resource "dnsaccount_dedicated_ipv4" "router" {
  device_id = dnsaccount_device.router.device_id
}

output "router_ip" {
  value = dnsaccount_dedicated_ipv4.router.ip
}
