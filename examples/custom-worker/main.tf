# Your own worker on a fleet: the binary built from main.go (dwk plus
# package hello) deployed with modules/fleet, serving the hello worker
# under /hello/ with one Guestbook object per name. Locally here; give
# modules/fleet SSH hosts instead to run it on VMs (see examples/ssh-fleet).

provider "dwk" {
  libsql = {
    url        = var.libsql_url
    admin_url  = var.libsql_admin_url
    auth_token = var.libsql_auth_token
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

  # Names registered by package hello (worker.RegisterWorker and
  # worker.RegisterObject); dwk validate refuses names the binary lacks.
  workers = [{
    name   = "hello"
    routes = ["/hello/"]
    bindings = {
      objects = { GUESTBOOK = "Guestbook" }
      vars    = { GREETING = var.greeting }
    }
  }]
  # The front door sends /hello/{name} straight to the replica holding that
  # name's Guestbook.
  affinity_rules = [{ namespace = "Guestbook", path = "/hello/{name}/..." }]

  hosts = [for i in range(var.replicas) : {
    address     = "local"
    member      = "hello-${i + 1}"
    install_dir = "${var.state_dir}/replica-${i + 1}"
    public      = "127.0.0.1:${var.base_port + 10 * i}"
    internal    = "127.0.0.1:${var.base_port + 10 * i + 1}"
    admin       = "127.0.0.1:${var.base_port + 10 * i + 2}"
  }]

  # A local example: destroy deletes its databases and bucket.
  deletion_protection = false
  force_destroy       = true
  service             = "process"
  min_healthy_time    = "2s"
  drain_timeout       = "10s"
}
