output "urls" {
  description = "The replicas' front doors. Each balances over the whole fleet: open any of them in a browser for the app."
  value       = module.fleet.urls
}

output "url" {
  description = "The first replica's front door."
  value       = module.fleet.url
}

output "members" {
  description = "The replicas: member, install directory, URL, state."
  value       = module.fleet.members
}

output "worker" {
  description = "The worker's name, as the project's wrangler file gives it."
  value       = module.app.name
}

output "d1_databases" {
  description = "The project's D1 databases: binding → libSQL database."
  value       = module.app.d1_databases
}

output "migrations" {
  description = "The migrations applied to each D1 database, in order."
  value       = module.app.migrations
}

output "bucket" {
  description = "The fleet's bucket on the S3 server (the project's R2 buckets are prefixes in it)."
  value       = module.fleet.bucket
}

output "databases" {
  description = "The fleet's own libSQL databases."
  value       = module.fleet.databases
}
