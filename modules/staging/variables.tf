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
