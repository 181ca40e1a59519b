# The variables dwk_fleet has too (the ports, drain_timeout, lease_ttl,
# log_level and the rollout settings) default to dwk_fleet's defaults,
# which are dwk's own (appliance/config) where dwk has one. `go generate
# ./provider/...` writes them here (provider/internal/modulevars) and a
# test fails when they differ. modules/staging/fleet_variables.tf is
# generated from this file too.

variable "name" {
  description = "Fleet name (`fleet.name`): 1-63 characters of a-z, 0-9 and '-'. It names the fleet's databases (`dwk-coord-<name>`, `dwk-queues-<name>`, `dwk-<name>-d1-<db>`) and, by default, its bucket. Changing it replaces everything."
  type        = string
  nullable    = false

  validation {
    condition     = can(regex("^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$", var.name))
    error_message = "The fleet name must be 1-63 characters of a-z, 0-9 and '-', starting and ending with a letter or digit."
  }
}

variable "secret" {
  description = "Fleet secret (`fleet.secret`), at least 32 characters (e.g. `openssl rand -hex 32`): derives object ids and authenticates calls between replicas. Passed to dwk_fleet's write-only `secret`, so it is never stored in the plan or the state; give the same value on every apply."
  type        = string
  sensitive   = true
  ephemeral   = true
  nullable    = false

  validation {
    condition     = length(var.secret) >= 32
    error_message = "The fleet secret must be at least 32 characters (openssl rand -hex 32)."
  }
}

variable "artifact" {
  description = "Path of the `dwk` binary to deploy, on the machine running Terraform (e.g. bin/dwk from `make build`, or a custom build with your own workers). A new binary at the same path rolls the fleet."
  type        = string
  nullable    = false
}

variable "hosts" {
  description = <<-EOT
    Where the replicas run, one per element. `address` is an SSH host name or IP address, or "local" for the machine running
    Terraform. Every other field is optional and defaults as in dwk_fleet: `port` (SSH, 22), `user` ("root"), `host_key`
    (the host's public SSH key in authorized_keys format, required for SSH hosts), `install_dir` ("/opt/dwk/<name>"),
    `member`, and the listen addresses `public`, `internal`, `advertise` and `admin` (from the *_port variables). Several
    "local" hosts need their own install_dir and listen addresses.
  EOT
  type = list(object({
    address     = string
    port        = optional(number)
    user        = optional(string)
    host_key    = optional(string)
    install_dir = optional(string)
    member      = optional(string)
    public      = optional(string)
    internal    = optional(string)
    advertise   = optional(string)
    admin       = optional(string)
  }))
  nullable = false

  validation {
    condition     = length(var.hosts) >= 1
    error_message = "A fleet needs at least one host."
  }
  validation {
    condition     = alltrue([for h in var.hosts : h.address == "local" || h.host_key != null])
    error_message = "Every SSH host (address other than \"local\") needs host_key, its public SSH host key (ssh-keyscan -t ed25519 HOST, checked out of band)."
  }
}

variable "ssh_private_key" {
  description = "Private key (PEM) for SSH hosts, passed to dwk_fleet's write-only hosts[].private_key: create and update use it, and it never lands in the state. Refresh and destroy see only the state, so configure the provider's `ssh` credentials (or an ssh-agent) for them; with those, leave this null."
  type        = string
  sensitive   = true
  default     = null
}

variable "libsql" {
  description = "The libSQL server as the replicas reach it (`storage.libsql`): `url` (Hrana), `admin_url` (namespaces API, to create object packs and D1 databases) and `ca_file` (PEM CA of a server with a private certificate, copied to the hosts). Unset fields fall back to the provider's `libsql` block, which is how Terraform reaches it; set them when the hosts use another address."
  type = object({
    url       = optional(string)
    admin_url = optional(string)
    ca_file   = optional(string)
  })
  default  = {}
  nullable = false
}

variable "libsql_auth_token" {
  description = "JWT the replicas send to the libSQL server. Default: the provider's `libsql.auth_token`."
  type        = string
  sensitive   = true
  default     = null
}

variable "libsql_admin_token" {
  description = "Key the replicas send to the libSQL admin API. Default: the provider's `libsql.admin_token`."
  type        = string
  sensitive   = true
  default     = null
}

variable "s3" {
  description = "The S3 store as the replicas reach it (`storage.s3`): `endpoint`, `region`, `access_key` and `path_style`. Unset fields fall back to the provider's `s3` block."
  type = object({
    endpoint   = optional(string)
    region     = optional(string)
    access_key = optional(string)
    path_style = optional(bool)
  })
  default  = {}
  nullable = false
}

variable "s3_secret_key" {
  description = "Secret key the replicas use for S3. Default: the provider's `s3.secret_key`."
  type        = string
  sensitive   = true
  default     = null
}

variable "bucket" {
  description = "Name of the fleet's bucket (blobs of every R2 binding under r2/<name>/, and the mode marker). Default: \"dwk-<name>\"."
  type        = string
  default     = null

  validation {
    condition     = var.bucket == null || can(regex("^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$", var.bucket))
    error_message = "A bucket name is 3-63 characters of a-z, 0-9, '.' and '-', starting and ending with a letter or digit."
  }
}

variable "deletion_protection" {
  description = "Refuse to destroy the fleet's databases (dwk_database deletion_protection): destroy fails naming the flag until an apply sets it false. Turn it off only for disposable fleets."
  type        = bool
  default     = true
  nullable    = false
}

variable "force_destroy" {
  description = "Delete the bucket's objects when the fleet is destroyed. Leave false for fleets whose data matters: destroy then fails on a non-empty bucket."
  type        = bool
  default     = false
  nullable    = false
}

variable "workers" {
  description = "The applications the replicas serve (dwk_fleet `workers`): a Go worker registered in the binary under `name`, or a Workers project (`project`: its wrangler file, directory or `.dwkb`; `env`), whose bindings come from its wrangler file (modules/workers-app creates its D1 databases and applies their migrations). Default (null): the reference workers of the standard dwk binary, counter and chat, with their affinity rules."
  type = list(object({
    name    = optional(string)
    project = optional(string)
    env     = optional(string)
    routes  = optional(list(string))
    bindings = optional(object({
      d1           = optional(map(string))
      r2           = optional(map(string))
      kv           = optional(map(string))
      queues       = optional(map(string))
      objects      = optional(map(string))
      vars         = optional(map(string))
      services     = optional(map(string))
      secret_files = optional(map(string))
    }))
    crons = optional(list(string))
    consumers = optional(list(object({
      queue              = string
      max_batch_size     = optional(number)
      max_batch_timeout  = optional(string)
      max_retries        = optional(number)
      dead_letter_queue  = optional(string)
      retry_delay        = optional(string)
      visibility_timeout = optional(string)
      max_concurrency    = optional(number)
    })))
  }))
  default = null
}

variable "worker_secrets" {
  description = "Secret bindings by worker name: worker → (secret name → value), as `wrangler secret put` sets them (dwk_fleet `workers[].secrets`). Write-only: rendered into the hosts' dwk.json, never stored in the state; a new value rolls the fleet. A project's name is its wrangler file's (modules/workers-app's `name`)."
  type        = map(map(string))
  sensitive   = true
  default     = {}
  nullable    = false
}

variable "affinity_rules" {
  description = "How the front door finds the object a request is for (dwk_fleet `affinity_rules`): `namespace` and exactly one of `path` (\"/counter/{name}/...\"), `header` or `query`. Default: none, or the reference workers' rules when `workers` is null."
  type = list(object({
    namespace = string
    path      = optional(string)
    header    = optional(string)
    query     = optional(string)
  }))
  default = null
}

variable "d1_databases" {
  description = "D1 database names to create. Default (null): every database the workers bind in `bindings.d1` (\"chat\" for the reference workers)."
  type        = set(string)
  default     = null
}

variable "public_port" {
  description = "Port of each replica's front door (Caddy), unless a host sets `public`."
  type        = number
  default     = 8787
  nullable    = false

  validation {
    condition     = var.public_port >= 1 && var.public_port <= 65535
    error_message = "public_port must be a port number from 1 to 65535."
  }
}

variable "internal_port" {
  description = "Port of each replica's internal app server, which other replicas forward to, unless a host sets `internal`."
  type        = number
  default     = 8788
  nullable    = false

  validation {
    condition     = var.internal_port >= 1 && var.internal_port <= 65535
    error_message = "internal_port must be a port number from 1 to 65535."
  }
}

variable "admin_port" {
  description = "Port of each replica's admin listener (on loopback), unless a host sets `admin`."
  type        = number
  default     = 8789
  nullable    = false

  validation {
    condition     = var.admin_port >= 1 && var.admin_port <= 65535
    error_message = "admin_port must be a port number from 1 to 65535."
  }
}

variable "service" {
  description = "How replicas run: \"systemd\", \"process\" (a detached `dwk supervise`) or \"auto\" (systemd where the host booted with it)."
  type        = string
  default     = "auto"
  nullable    = false

  validation {
    condition     = contains(["auto", "systemd", "process"], var.service)
    error_message = "service must be \"auto\", \"systemd\" or \"process\"."
  }
}

variable "max_parallel" {
  description = "Most replicas out of rotation at once during a rolling update."
  type        = number
  default     = 1
  nullable    = false

  validation {
    condition     = var.max_parallel >= 1
    error_message = "max_parallel must be at least 1."
  }
}

variable "min_healthy_time" {
  description = "How long an updated replica must keep answering /readyz before the rollout moves on (a duration like \"5s\")."
  type        = string
  default     = "5s"
  nullable    = false

  validation {
    condition     = can(regex("^([0-9]+(\\.[0-9]+)?(ns|us|ms|s|m|h))+$", var.min_healthy_time))
    error_message = "min_healthy_time must be a duration like \"30s\", \"1m30s\" or \"500ms\"."
  }
}

variable "ready_timeout" {
  description = "How long a started replica may take to answer /readyz."
  type        = string
  default     = "60s"
  nullable    = false

  validation {
    condition     = can(regex("^([0-9]+(\\.[0-9]+)?(ns|us|ms|s|m|h))+$", var.ready_timeout))
    error_message = "ready_timeout must be a duration like \"30s\", \"1m30s\" or \"500ms\"."
  }
}

variable "auto_revert" {
  description = "When an update fails, put the previous binary and config back on the replicas already changed."
  type        = bool
  default     = false
  nullable    = false
}

variable "drain_timeout" {
  description = "How long a draining replica may take to finish in-flight work (`drain.timeout`)."
  type        = string
  default     = "30s"
  nullable    = false

  validation {
    condition     = can(regex("^([0-9]+(\\.[0-9]+)?(ns|us|ms|s|m|h))+$", var.drain_timeout))
    error_message = "drain_timeout must be a duration like \"30s\", \"1m30s\" or \"500ms\"."
  }
}

variable "lease_ttl" {
  description = "Object lease TTL (`lease.ttl`): how long a dead replica's objects wait before another takes them."
  type        = string
  default     = "2s"
  nullable    = false

  validation {
    condition     = can(regex("^([0-9]+(\\.[0-9]+)?(ns|us|ms|s|m|h))+$", var.lease_ttl))
    error_message = "lease_ttl must be a duration like \"30s\", \"1m30s\" or \"500ms\"."
  }
}

variable "log_level" {
  description = "Replica log level: debug, info, warn or error."
  type        = string
  default     = "info"
  nullable    = false

  validation {
    condition     = contains(["debug", "info", "warn", "error"], var.log_level)
    error_message = "log_level must be debug, info, warn or error."
  }
}

variable "insecure_plaintext_internal" {
  description = "Turn off mutual TLS between the replicas (on by default, with a fleet CA derived from `secret`); forwarded requests are then only signed. Only for hosts on a network nothing else can see. See docs/security.md."
  type        = bool
  default     = false
  nullable    = false
}

variable "tls" {
  description = "Automatic HTTPS on every replica's front door (`dwk_fleet`'s `tls`): `domains`, and optionally `email`, `acme_ca` (an ACME directory URL; default Let's Encrypt), `acme_ca_root` (a PEM file here of the roots `acme_ca`'s certificate chains to) and `shared` (default true: one certificate per domain for the whole fleet). With `public_port` 443, plain HTTP on port 80 redirects to HTTPS. Default: null (plain HTTP)."
  type = object({
    domains      = list(string)
    email        = optional(string)
    acme_ca      = optional(string)
    acme_ca_root = optional(string)
    shared       = optional(bool)
  })
  default = null
}
