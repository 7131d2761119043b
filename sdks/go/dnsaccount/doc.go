// Manage a DNS service account (AdGuard DNS API): tokens, DNS servers and their filtering settings, devices and dedicated IPv4 addresses.
package dnsaccount
