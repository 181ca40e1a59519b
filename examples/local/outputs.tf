output "urls" {
  description = "The replicas' front doors. Each balances over the whole fleet: open any of them in a browser for the chat room."
  value       = module.fleet.urls
}

output "app_url" {
  description = "The Workers project (examples/workers-app/app) on the first front door."
  value       = "${module.fleet.url}/"
}

output "url" {
  description = "The first replica's front door."
  value       = module.fleet.url
}

output "members" {
  description = "The replicas: member, install directory, URL, state."
  value       = module.fleet.members
}

output "bucket" {
  description = "The fleet's bucket on the S3 server."
  value       = module.fleet.bucket
}

output "databases" {
  description = "The fleet's libSQL databases."
  value       = module.fleet.databases
}

output "marker" {
  description = "The fleet's mode marker."
  value       = module.fleet.marker
}

