# From bare SSH-reachable hosts to a running fleet in one apply: the libSQL
# server, continuously backed up to S3, on one host; a dwk replica on each
# of the others; the fleet's bucket and the backup bucket on your S3
# endpoint. Secure by default: the libSQL server takes only the JWTs and
# the admin key Terraform makes for it, and the replicas talk to each other
# over mutual TLS.

locals {
  ssh_private_key = sensitive(file(pathexpand(var.ssh_private_key_file)))
  s3 = {
    endpoint   = var.s3_endpoint
    region     = var.s3_region
    access_key = var.s3_access_key
    secret_key = var.s3_secret_key
    path_style = var.s3_path_style
  }
  backup_bucket = coalesce(var.backup_bucket, "${var.name}-libsql-backup")
}

# The provider that sets up the libSQL server and its backup bucket. It
# cannot be the one below: that one is configured from this server's
# outputs.
provider "dwk" {
  alias = "hosts"
  ssh   = { private_key = local.ssh_private_key }
  s3    = local.s3
}

# The provider of the fleet: its stores are the server below.
provider "dwk" {
  ssh = { private_key = local.ssh_private_key }
  libsql = {
    url         = dwk_libsql_server.db.url
    admin_url   = dwk_libsql_server.db.admin_url
    auth_token  = dwk_libsql_server.db.auth_token
    admin_token = dwk_libsql_server.db.admin_token
    ca_file     = var.libsql_tls_cert_file
  }
  s3 = local.s3
}

resource "dwk_bucket" "backup" {
  provider      = dwk.hosts
  name          = local.backup_bucket
  force_destroy = var.force_destroy
}

resource "dwk_libsql_server" "db" {
  provider = dwk.hosts

  host = {
    address  = var.libsql_host.address
    port     = var.libsql_host.port
    user     = var.libsql_host.user
    host_key = var.libsql_host.host_key
  }
  artifact      = var.artifact
  install_dir   = var.libsql_host.install_dir
  listen        = "${var.libsql_host.listen}:${var.libsql_port}"
  admin_listen  = "${var.libsql_host.listen}:${var.libsql_admin_port}"
  tls_cert_file = var.libsql_tls_cert_file
  tls_key_file  = var.libsql_tls_key_file
  force_destroy = var.force_destroy

  backup = {
    bucket     = dwk_bucket.backup.name
    prefix     = "libsql/${var.name}/"
    endpoint   = var.s3_endpoint
    region     = var.s3_region
    access_key = var.s3_access_key
    secret_key = var.s3_secret_key
    path_style = var.s3_path_style
  }
}

module "fleet" {
  source = "../../modules/fleet"

  name     = var.name
  secret   = var.fleet_secret
  artifact = var.artifact
  bucket   = var.bucket

  libsql = {
    url       = dwk_libsql_server.db.url
    admin_url = dwk_libsql_server.db.admin_url
    ca_file   = var.libsql_tls_cert_file
  }
  libsql_auth_token  = dwk_libsql_server.db.auth_token
  libsql_admin_token = dwk_libsql_server.db.admin_token
  s3                 = { endpoint = var.s3_endpoint, region = var.s3_region, access_key = var.s3_access_key, path_style = var.s3_path_style }
  s3_secret_key      = var.s3_secret_key
  ssh_private_key    = local.ssh_private_key
  tls                = var.tls

  hosts = [for h in var.replica_hosts : {
    address     = h.address
    host_key    = h.host_key
    user        = h.user
    port        = h.port
    public      = "${h.listen}:${var.public_port}"
    internal    = "${h.listen}:${var.internal_port}"
    admin       = "${h.admin_listen}:${var.admin_port}"
    install_dir = h.install_dir
  }]

  deletion_protection = !var.force_destroy
  force_destroy       = var.force_destroy
  service             = "auto"
  max_parallel        = 1
  auto_revert         = true
}
