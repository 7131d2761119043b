# The server's id, as `dns-account servers` lists it.
tofu import dnsaccount_dns_server.office 0a1b2c3d
