data "dnsaccount_filter_lists" "all" {}

output "filter_list_ids" {
  value = [for f in data.dnsaccount_filter_lists.all.filter_lists : f.filter_id]
}
