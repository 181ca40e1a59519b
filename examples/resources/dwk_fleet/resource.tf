# Three replicas on VMs reached over SSH, rolled one at a time.
resource "dwk_fleet" "prod" {
  name     = "prod"
  secret   = var.fleet_secret # write-only: never stored in the state
  artifact = "${path.module}/bin/dwk"

  storage_mode = "central"
  libsql = {
    url       = "http://10.0.0.9:8080"
    admin_url = "http://10.0.0.9:9090"
  }
  s3 = {
    bucket     = "prod-fleet"
    endpoint   = "http://10.0.0.9:7070"
    path_style = true
  }

  workers = [
    {
      name     = "counter"
      routes   = ["/counter/"]
      bindings = { objects = { COUNTER = "Counter" } }
    },
    {
      # A Workers project: built here at plan time, shipped with the
      # binary; its bindings, crons and consumers come from the file.
      project = "${path.module}/shop/wrangler.jsonc"
      secrets = { STRIPE_KEY = var.stripe_key } # write-only
    },
  ]
  affinity_rules = [{ namespace = "Counter", path = "/counter/{name}/..." }]

  max_parallel     = 1
  min_healthy_time = "10s"
  auto_revert      = true

  hosts = [for ip in ["10.0.0.5", "10.0.0.6", "10.0.0.7"] : {
    address     = ip
    user        = "root"
    private_key = file("~/.ssh/dwk_deploy")
    host_key    = file("${path.module}/host-keys/${ip}.pub")
  }]
}

# A staging fleet on the machine running Terraform: two replicas, local mode.
resource "dwk_fleet" "staging" {
  name     = "staging"
  artifact = "${path.module}/bin/dwk"
  service  = "process"

  hosts = [
    { address = "local", install_dir = "/tmp/dwk-staging/1", public = "127.0.0.1:8787", admin = "127.0.0.1:8789" },
    { address = "local", install_dir = "/tmp/dwk-staging/2", public = "127.0.0.1:8797", admin = "127.0.0.1:8799" },
  ]
}

output "urls" {
  value = dwk_fleet.prod.urls
}

variable "fleet_secret" {
  type      = string
  sensitive = true
  ephemeral = true
}
