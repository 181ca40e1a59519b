# A central-mode dwk fleet: its libSQL databases, its bucket, the mode marker
# in both, and the replicas on the given hosts, in the order the replicas
# need them (the marker before any replica starts; on destroy, the replicas
# drain and go before the stores do).

locals {
  # The D1 bindings of the reference workers (config.Default() in
  # appliance/config), used when var.workers is null.
  reference_d1 = ["chat"]

  bound_d1 = var.workers == null ? local.reference_d1 : flatten([
    for w in var.workers : w.bindings == null ? [] : (w.bindings.d1 == null ? [] : values(w.bindings.d1))
  ])
  d1 = var.d1_databases != null ? var.d1_databases : toset(local.bound_d1)

  bucket = var.bucket != null ? var.bucket : replace(substr("dwk-${var.name}", 0, 63), "/-+$/", "")
}

# The databases' names come from the provider's functions, which compute
# them with the Go code the replicas open them with
# (appliance/fleet/namespaces).

# Coordination KV: leases, membership, alarms' index, KV namespaces, cron
# ticks, and the mode marker.
resource "dwk_database" "coord" {
  name                = provider::dwk::coord_database(var.name)
  deletion_protection = var.deletion_protection
}

# The queue broker.
resource "dwk_database" "queues" {
  name                = provider::dwk::queues_database(var.name)
  deletion_protection = var.deletion_protection
}

# One database per D1 binding target.
resource "dwk_database" "d1" {
  for_each            = local.d1
  name                = provider::dwk::d1_database(var.name, each.key)
  deletion_protection = var.deletion_protection
}

resource "dwk_bucket" "this" {
  name          = local.bucket
  force_destroy = var.force_destroy
}

resource "dwk_mode_marker" "this" {
  fleet  = var.name
  bucket = dwk_bucket.this.name

  depends_on = [dwk_database.coord]
}

resource "dwk_fleet" "this" {
  name         = var.name
  secret       = var.secret
  artifact     = var.artifact
  storage_mode = "central"

  libsql = {
    url         = var.libsql.url
    admin_url   = var.libsql.admin_url
    ca_file     = var.libsql.ca_file
    auth_token  = var.libsql_auth_token
    admin_token = var.libsql_admin_token
  }
  s3 = {
    bucket     = dwk_mode_marker.this.bucket
    endpoint   = var.s3.endpoint
    region     = var.s3.region
    access_key = var.s3.access_key
    secret_key = var.s3_secret_key
    path_style = var.s3.path_style
  }

  # The secrets join the workers here, so that nothing else derived from
  # var.workers (the D1 databases' for_each) is sensitive.
  workers = var.workers == null ? null : [for w in var.workers : merge(w, {
    secrets = lookup(var.worker_secrets, coalesce(w.name, "-"), null)
  })]
  affinity_rules = var.affinity_rules

  public_port   = var.public_port
  internal_port = var.internal_port
  admin_port    = var.admin_port
  drain_timeout = var.drain_timeout
  lease_ttl     = var.lease_ttl
  log_level     = var.log_level

  service          = var.service
  max_parallel     = var.max_parallel
  min_healthy_time = var.min_healthy_time
  ready_timeout    = var.ready_timeout
  auto_revert      = var.auto_revert

  insecure_plaintext_internal = var.insecure_plaintext_internal
  tls                         = var.tls

  hosts = [for h in var.hosts : {
    address     = h.address
    port        = h.port
    user        = h.user
    private_key = h.address == "local" ? null : var.ssh_private_key
    host_key    = h.host_key
    install_dir = h.install_dir
    member      = h.member
    public      = h.public
    internal    = h.internal
    advertise   = h.advertise
    admin       = h.admin
  }]

  # Replicas refuse to start without the marker; they create object
  # databases themselves, but D1 and queue databases come from here.
  depends_on = [dwk_database.queues, dwk_database.d1]
}
