data "dnsaccount_web_services" "all" {}

output "web_service_ids" {
  value = [for s in data.dnsaccount_web_services.all.web_services : s.id]
}
