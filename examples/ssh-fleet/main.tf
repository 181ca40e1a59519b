# A production-shaped fleet: one replica per VM over SSH, run by systemd
# (where the hosts booted with it), rolled one at a time with automatic
# revert, behind a DNS name or cloud load balancer that spreads clients over
# the replicas' front doors (port 8787). The stores are a libSQL server
# (sqld, Turso or dwk libsql) and an S3 service both Terraform and the hosts
# reach at the same addresses.

locals {
  ssh_private_key = sensitive(file(pathexpand(var.ssh_private_key_file)))
}

provider "dwk" {
  # Every operation reaches the hosts with this key (or ssh-agent's, when
  # SSH_AUTH_SOCK is set); provider configuration never lands in the state.
  ssh = {
    private_key = local.ssh_private_key
  }
  libsql = {
    url         = var.libsql_url
    admin_url   = var.libsql_admin_url
    auth_token  = var.libsql_auth_token
    admin_token = var.libsql_admin_token
    ca_file     = var.libsql_ca_file
  }
  s3 = {
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

  hosts = [for h in var.hosts : {
    address  = h.address
    host_key = h.host_key
    user     = h.user
    port     = h.port
  }]

  # Production: keep the databases and the blobs when someone runs destroy
  # (deletion_protection defaults to true), roll one replica at a time and
  # put the old binary back if a replica fails its checks.
  force_destroy    = false
  service          = "auto"
  max_parallel     = 1
  min_healthy_time = "10s"
  auto_revert      = true
}

# What each replica reports, read over SSH from its admin API.
data "dwk_fleet_status" "prod" {
  hosts = [for h in var.hosts : {
    address     = h.address
    host_key    = h.host_key
    user        = h.user
    port        = h.port
    install_dir = "/opt/dwk/${var.name}"
  }]
  # No admin_token: it is read back from each replica's dwk.json.

  depends_on = [module.fleet]
}
