output "name" {
  description = "The fleet name."
  value       = dwk_fleet.this.name
}

output "urls" {
  description = "Public URLs of the replicas' front doors, in the order of `hosts`. Each is a load balancer over the whole fleet: any of them serves every request."
  value       = dwk_fleet.this.urls
}

output "url" {
  description = "The first replica's public URL."
  value       = dwk_fleet.this.urls[0]
}

output "members" {
  description = "The replicas as the last apply or refresh found them: member name, address, install directory, public URL, state (\"running\" when healthy), version and service."
  value = [for r in dwk_fleet.this.replicas : {
    member      = r.member
    address     = r.address
    install_dir = r.install_dir
    url         = r.url
    state       = r.state
    version     = r.version
    service     = r.service
  }]
}


output "internal_ca_certificate" {
  description = "The fleet CA certificate (PEM) the replicas' internal TLS certificates chain to; null with `insecure_plaintext_internal`. `dwk status --ca-file` takes it for an admin listener that is not on loopback."
  value       = dwk_fleet.this.internal_ca_certificate
}

output "bucket" {
  description = "The fleet's bucket."
  value       = dwk_bucket.this.name
}

output "databases" {
  description = "The fleet's libSQL databases: `coord`, `queues`, and `d1` (D1 name => database)."
  value = {
    coord  = dwk_database.coord.name
    queues = dwk_database.queues.name
    d1     = { for k, d in dwk_database.d1 : k => d.name }
  }
}

output "marker" {
  description = "The mode marker: its id (both copies carry it), schema, and the coordination database holding it."
  value = {
    id       = dwk_mode_marker.this.marker_id
    schema   = dwk_mode_marker.this.schema
    database = dwk_mode_marker.this.database
  }
}
