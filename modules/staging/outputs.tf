output "name" {
  description = "The environment's fleet name, `<prefix>-<workspace>`."
  value       = module.fleet.name
}

output "workspace" {
  description = "The Terraform workspace the environment is named after."
  value       = terraform.workspace
}

output "urls" {
  description = "Public URLs of the replicas; each one load-balances over the whole environment."
  value       = module.fleet.urls
}

output "url" {
  description = "The first replica's public URL."
  value       = module.fleet.url
}

output "members" {
  description = "The replicas: member name, address, install directory, URL, state, version, service."
  value       = module.fleet.members
}

output "ports" {
  description = "The environment's ports, per replica: public, internal and admin."
  value       = local.ports
}

output "bucket" {
  description = "The environment's bucket."
  value       = module.fleet.bucket
}

output "databases" {
  description = "The environment's libSQL databases: coord, queues and d1."
  value       = module.fleet.databases
}

output "marker" {
  description = "The environment's mode marker: id, schema, database."
  value       = module.fleet.marker
}

