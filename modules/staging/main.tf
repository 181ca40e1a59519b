# A disposable staging environment named after the Terraform workspace:
# `terraform workspace new pr-123 && terraform apply` stands one up,
# `terraform destroy` removes every trace. Environments share nothing: each
# has its own fleet name (hence databases, bucket and marker), its own
# derived fleet secret (hence object ids and object databases), its own
# block of ports and its own install directories.

locals {
  slug  = trim(replace(lower(terraform.workspace), "/[^a-z0-9-]+/", "-"), "-")
  fleet = trim(substr("${var.prefix}-${local.slug == "" ? "default" : local.slug}", 0, 48), "-")

  base_port = var.base_port != null ? var.base_port : 20000 + 25 * (parseint(substr(sha256(local.fleet), 0, 6), 16) % 400)

  n = var.hosts == null ? var.replicas : length(var.hosts)
  ports = [for i in range(local.n) : {
    public   = local.base_port + 3 * i
    internal = local.base_port + 3 * i + 1
    admin    = local.base_port + 3 * i + 2
  }]

  local_hosts = [for i in range(var.replicas) : {
    address     = "local"
    port        = null
    user        = null
    host_key    = null
    install_dir = "${var.state_dir}/${local.fleet}/replica-${i + 1}"
    member      = "${local.fleet}-${i + 1}"
    public      = "127.0.0.1:${local.ports[i].public}"
    internal    = "127.0.0.1:${local.ports[i].internal}"
    advertise   = null
    admin       = "127.0.0.1:${local.ports[i].admin}"
  }]

  ssh_hosts = var.hosts == null ? [] : [for i, h in var.hosts : {
    address     = h.address
    port        = h.port
    user        = h.user
    host_key    = h.host_key
    install_dir = "/opt/dwk/${local.fleet}"
    member      = null
    public      = "0.0.0.0:${local.ports[i].public}"
    internal    = "0.0.0.0:${local.ports[i].internal}"
    advertise   = null
    admin       = "127.0.0.1:${local.ports[i].admin}"
  }]
}

module "fleet" {
  source = "../fleet"

  name   = local.fleet
  secret = sha256("${var.secret}/${local.fleet}")
  # The hash is 64 hex digits: long enough for central mode.

  artifact = var.artifact
  hosts    = var.hosts == null ? local.local_hosts : local.ssh_hosts

  ssh_private_key    = var.ssh_private_key
  libsql             = var.libsql
  libsql_auth_token  = var.libsql_auth_token
  libsql_admin_token = var.libsql_admin_token
  s3                 = var.s3
  s3_secret_key      = var.s3_secret_key

  workers        = var.workers
  affinity_rules = var.affinity_rules
  log_level      = var.log_level

  # Disposable: destroy takes the databases and the blobs with the bucket,
  # and nothing waits.
  deletion_protection = false
  force_destroy       = true
  service             = var.hosts == null ? "process" : "auto"
  max_parallel        = local.n
  min_healthy_time    = "1s"
  drain_timeout       = "10s"
}
