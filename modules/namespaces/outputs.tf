output "coord" {
  description = "The coordination database (coordination KV, leases, membership, the mode marker): `dwk-coord-<fleet>`."
  value       = local.fitted["coord"]
}

output "queues" {
  description = "The queue broker's database: `dwk-queues-<fleet>`."
  value       = local.fitted["queues"]
}

output "d1" {
  description = "D1 database name => its libSQL database, `dwk-<fleet>-d1-<name>`."
  value       = { for d in var.d1 : d => local.fitted["d1:${d}"] }
}
