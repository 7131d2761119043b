import {
  to = dnsaccount_device.tv
  id = "4e5f6a7b"
}

resource "dnsaccount_device" "tv" {
  name          = "TV"
  device_type   = "SMART_TV"
  dns_server_id = "0a1b2c3d"
}
