output "urls" {
  description = "The replicas' front doors; point DNS or a load balancer at them."
  value       = module.fleet.urls
}

output "members" {
  description = "The replicas as Terraform last saw them."
  value       = module.fleet.members
}

output "ready" {
  description = "How many replicas report ready."
  value       = data.dwk_fleet_status.prod.ready
}

output "bucket" {
  description = "The fleet's bucket."
  value       = module.fleet.bucket
}

output "databases" {
  description = "The fleet's libSQL databases."
  value       = module.fleet.databases
}

output "internal_ca_certificate" {
  description = "The fleet CA certificate the replicas' internal TLS certificates chain to (for dwk status --ca-file)."
  value       = module.fleet.internal_ca_certificate
}
