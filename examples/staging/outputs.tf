output "name" {
  description = "This environment's fleet name."
  value       = module.staging.name
}

output "urls" {
  description = "This environment's front doors."
  value       = module.staging.urls
}

output "ports" {
  description = "This environment's ports per replica."
  value       = module.staging.ports
}

output "bucket" {
  description = "This environment's bucket."
  value       = module.staging.bucket
}

output "databases" {
  description = "This environment's libSQL databases."
  value       = module.staging.databases
}

output "marker" {
  description = "This environment's mode marker."
  value       = module.staging.marker
}

output "members" {
  description = "This environment's replicas."
  value       = module.staging.members
}
