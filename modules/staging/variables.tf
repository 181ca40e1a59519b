variable "prefix" {
  description = "First part of the environment's fleet name, `<prefix>-<workspace>`."
  type        = string
  default     = "staging"
  nullable    = false

  validation {
    condition     = can(regex("^[a-z0-9][a-z0-9-]{0,20}$", var.prefix))
    error_message = "The prefix must be 1-21 characters of a-z, 0-9 and '-', starting with a letter or digit."
  }
}

variable "secret" {
  description = "Base secret, at least 32 characters. Each environment's fleet secret is derived from it and the fleet name, so environments never share object ids even when they share this value. Never stored in the plan or the state."
  type        = string
  sensitive   = true
  ephemeral   = true
  nullable    = false

  validation {
    condition     = length(var.secret) >= 32
    error_message = "The secret must be at least 32 characters (openssl rand -hex 32)."
  }
}

variable "artifact" {
  description = "Path of the `dwk` binary to deploy, on the machine running Terraform."
  type        = string
  nullable    = false
}

variable "replicas" {
  description = "Number of replicas on the machine running Terraform, when `hosts` is null."
  type        = number
  default     = 2
  nullable    = false

  validation {
    condition     = var.replicas >= 1 && var.replicas <= 8
    error_message = "A staging environment has 1 to 8 replicas."
  }
}

variable "hosts" {
  description = "SSH hosts to deploy to instead of local replicas: `address` and `host_key`, optionally `port` and `user`. Install directories and ports are derived from the environment, so several environments can share hosts."
  type = list(object({
    address  = string
    host_key = string
    port     = optional(number)
    user     = optional(string)
  }))
  default = null
}

variable "ssh_private_key" {
  description = "Private key for `hosts` (PEM, unencrypted)."
  type        = string
  sensitive   = true
  default     = null
}

variable "base_port" {
  description = "First of the environment's ports: replica n (from 0) listens on base_port + 3n (public), + 3n + 1 (internal) and + 3n + 2 (admin). Default: 20000 + 25 * (a hash of the fleet name mod 400), so environments get different blocks of ports; set it when two workspaces' blocks collide or a port is taken."
  type        = number
  default     = null

  validation {
    condition     = var.base_port == null || (coalesce(var.base_port, 1024) >= 1024 && coalesce(var.base_port, 1024) <= 65500)
    error_message = "base_port must be from 1024 to 65500."
  }
}

variable "state_dir" {
  description = "Directory under which local replicas are installed, one subdirectory per environment (`<state_dir>/<fleet>/replica-<n>`). Must be absolute."
  type        = string
  default     = "/tmp/dwk-staging"
  nullable    = false

  validation {
    condition     = startswith(var.state_dir, "/")
    error_message = "state_dir must be an absolute path."
  }
}

variable "libsql" {
  description = "The libSQL server as the replicas reach it (`url`, `admin_url`); unset fields fall back to the provider's `libsql`."
  type = object({
    url       = optional(string)
    admin_url = optional(string)
  })
  default  = {}
  nullable = false
}

variable "libsql_auth_token" {
  description = "JWT the replicas send to libSQL. Default: the provider's."
  type        = string
  sensitive   = true
  default     = null
}

variable "libsql_admin_token" {
  description = "Key the replicas send to the libSQL admin API. Default: the provider's."
  type        = string
  sensitive   = true
  default     = null
}

variable "s3" {
  description = "The S3 store as the replicas reach it (`endpoint`, `region`, `access_key`, `path_style`); unset fields fall back to the provider's `s3`."
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
  description = "Secret key the replicas use for S3. Default: the provider's."
  type        = string
  sensitive   = true
  default     = null
}

variable "workers" {
  description = "The applications to serve (see modules/fleet). Default (null): the reference workers, counter and chat."
  type = list(object({
    name   = string
    routes = optional(list(string))
    bindings = optional(object({
      d1      = optional(map(string))
      r2      = optional(map(string))
      kv      = optional(map(string))
      queues  = optional(map(string))
      objects = optional(map(string))
      vars    = optional(map(string))
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
    })))
  }))
  default = null
}

variable "affinity_rules" {
  description = "Affinity rules (see modules/fleet). Default: the reference workers' when `workers` is null."
  type = list(object({
    namespace = string
    path      = optional(string)
    header    = optional(string)
    query     = optional(string)
  }))
  default = null
}

variable "log_level" {
  description = "Replica log level: debug, info, warn or error."
  type        = string
  default     = "info"
  nullable    = false
}
