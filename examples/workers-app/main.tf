# A Workers project (app/: JavaScript, Hono, a Durable Object, D1, R2, KV,
# assets and a secret) on a 3-replica central-mode fleet on this machine,
# in one apply: modules/workers-app creates the D1 databases its wrangler
# file declares and applies their migrations; modules/fleet builds the
# project into an artifact, ships it with the binary and rolls the
# replicas. Edit the project and apply again: the fleet rolls, one replica
# at a time, with no failed request.

provider "dwk" {
  libsql = {
    url         = var.libsql_url
    admin_url   = var.libsql_admin_url
    auth_token  = var.libsql_auth_token
    admin_token = var.libsql_admin_token
  }
  s3 = {
    endpoint   = var.s3_endpoint
    region     = var.s3_region
    access_key = var.s3_access_key
    secret_key = var.s3_secret_key
    path_style = var.s3_path_style
  }
}

locals {
  repo      = abspath("${path.root}/../..")
  state_dir = var.state_dir != null ? var.state_dir : "${local.repo}/.workers-app/fleet"
  artifact  = var.artifact != null ? var.artifact : "${local.repo}/bin/dwk"
  project   = var.project != null ? var.project : "${path.module}/app"
}

# The project's D1 databases, migrated before any replica rolls.
module "app" {
  source = "../../modules/workers-app"

  fleet               = var.name
  project             = local.project
  deletion_protection = false
}

module "fleet" {
  source = "../../modules/fleet"

  name     = var.name
  secret   = var.fleet_secret
  artifact = local.artifact

  workers        = [module.app.worker]
  worker_secrets = { (module.app.name) = { API_TOKEN = var.api_token } }

  hosts = [for i in range(var.replicas) : {
    address     = "local"
    member      = "replica-${i + 1}"
    install_dir = "${local.state_dir}/replica-${i + 1}"
    public      = "127.0.0.1:${var.base_port + 10 * i}"
    internal    = "127.0.0.1:${var.base_port + 10 * i + 1}"
    admin       = "127.0.0.1:${var.base_port + 10 * i + 2}"
  }]

  # Disposable: destroy deletes the databases and empties the bucket,
  # replicas run as plain processes, rollouts do not wait long.
  deletion_protection = false
  force_destroy       = true
  service             = "process"
  max_parallel        = 1
  min_healthy_time    = "2s"
  drain_timeout       = "10s"
  log_level           = var.log_level

  depends_on = [module.app]
}
