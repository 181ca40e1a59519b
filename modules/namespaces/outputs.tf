# The libSQL database (sqld namespace) names of a fleet, from the dwk
# provider's functions: they compute them with appliance/fleet/namespaces,
# the code the replicas open the databases with, so the Terraform that
# creates them and the replicas agree to the byte.

output "coord" {
  description = "The coordination database (coordination KV, leases, membership, the mode marker): `dwk-coord-<fleet>`."
  value       = provider::dwk::coord_database(var.fleet)
}

output "queues" {
  description = "The queue broker's database: `dwk-queues-<fleet>`."
  value       = provider::dwk::queues_database(var.fleet)
}

output "d1" {
  description = "D1 database name => its libSQL database, `dwk-<fleet>-d1-<name>`."
  value       = { for d in var.d1 : d => provider::dwk::d1_database(var.fleet, d) }
}
