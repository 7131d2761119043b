data "dnsaccount_parental_control_categories" "all" {}

output "category_ids" {
  value = [for c in data.dnsaccount_parental_control_categories.all.categories : c.id]
}
