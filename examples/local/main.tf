# The whole thing on one machine: a central-mode fleet of three replicas
# (dwk_fleet's "local" host target, each a `dwk supervise` process), sharing
# a `dwk libsql` server and a versitygw S3 server, each replica's front door
# load-balancing over all of them. The replicas run the reference workers
# (Go: the counter and the chat) and a Workers project in JavaScript
# (examples/workers-app/app: a Durable Object, D1, R2, KV and assets).
# `make demo` starts the stores and runs this; see README.md to run it by
# hand.

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
  state_dir = var.state_dir != null ? var.state_dir : "${local.repo}/.demo/fleet"
  artifact  = var.artifact != null ? var.artifact : "${local.repo}/bin/dwk"
}

# The Workers project's D1 database, migrated before the replicas start.
module "app" {
  source = "../../modules/workers-app"

  fleet               = var.name
  project             = "${path.module}/../workers-app/app"
  routes              = ["/"]
  deletion_protection = false
}

module "fleet" {
  source = "../../modules/fleet"

  name     = var.name
  secret   = var.fleet_secret
  artifact = local.artifact

  # The reference workers (appliance/config's defaults) under their own
  # prefixes, and the Workers project on every other path.
  workers = [
    {
      name     = "counter"
      routes   = ["/counter/"]
      bindings = { objects = { COUNTER = "Counter" } }
    },
    {
      name   = "chat"
      routes = ["/chat/"]
      bindings = {
        d1      = { DB = "chat" }
        r2      = { FILES = "chat-files" }
        queues  = { NOTIFY = "chat-notify" }
        objects = { ROOMS = "ChatRoom" }
      }
      crons     = ["*/5 * * * *"]
      consumers = [{ queue = "chat-notify" }]
    },
    module.app.worker,
  ]
  affinity_rules = [
    { namespace = "Counter", path = "/counter/{name}/..." },
    { namespace = "ChatRoom", path = "/chat/rooms/{name}/..." },
  ]
  worker_secrets = { (module.app.name) = { API_TOKEN = var.app_token } }

  hosts = [for i in range(var.replicas) : {
    address     = "local"
    member      = "replica-${i + 1}"
    install_dir = "${local.state_dir}/replica-${i + 1}"
    public      = "127.0.0.1:${var.base_port + 10 * i}"
    internal    = "127.0.0.1:${var.base_port + 10 * i + 1}"
    admin       = "127.0.0.1:${var.base_port + 10 * i + 2}"
  }]

  # The demo is disposable: destroy deletes the databases and empties the
  # bucket, replicas run as plain processes, rollouts do not wait long.
  deletion_protection = false
  force_destroy       = true
  service             = "process"
  max_parallel        = 1
  min_healthy_time    = "2s"
  drain_timeout       = "10s"
  log_level           = var.log_level

  depends_on = [module.app]
}
