# The address itself.
tofu import dnsaccount_dedicated_ipv4.spare 203.0.113.7
