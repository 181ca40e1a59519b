output "urls" {
  description = "The replicas' front doors; try <url>/hello/world."
  value       = module.fleet.urls
}

output "members" {
  description = "The replicas."
  value       = module.fleet.members
}
