variable "name" {
  description = "Fleet name."
  type        = string
  default     = "demo"
  nullable    = false
}

variable "fleet_secret" {
  description = "Fleet secret, at least 32 characters (make demo generates one into .demo/fleet-secret). Never stored in the state; give the same value on every apply."
  type        = string
  sensitive   = true
  ephemeral   = true
  nullable    = false
}

variable "artifact" {
  description = "The dwk binary to run. Default: bin/dwk of this repository (make build)."
  type        = string
  default     = null
}

variable "state_dir" {
  description = "Absolute directory the replicas are installed under (replica-1, replica-2, ...). Default: .demo/fleet of this repository."
  type        = string
  default     = null

  validation {
    condition     = var.state_dir == null || startswith(coalesce(var.state_dir, "/"), "/")
    error_message = "state_dir must be an absolute path."
  }
}

variable "replicas" {
  description = "Number of replicas."
  type        = number
  default     = 3
  nullable    = false

  validation {
    condition     = var.replicas >= 1 && var.replicas <= 9
    error_message = "replicas must be from 1 to 9."
  }
}

variable "base_port" {
  description = "Replica n (from 0) serves on base_port + 10n (its front door: open it in a browser), base_port + 10n + 1 (internal) and base_port + 10n + 2 (admin)."
  type        = number
  default     = 8787
  nullable    = false

  validation {
    condition     = var.base_port >= 1024 && var.base_port <= 65400
    error_message = "base_port must be from 1024 to 65400."
  }
}

variable "libsql_url" {
  description = "Hrana URL of the libSQL server (dwk libsql --http-listen-addr)."
  type        = string
  default     = "http://127.0.0.1:18080"
  nullable    = false
}

variable "libsql_admin_url" {
  description = "Admin API URL of the libSQL server (dwk libsql --admin-listen-addr)."
  type        = string
  default     = "http://127.0.0.1:18081"
  nullable    = false
}

variable "libsql_admin_token" {
  description = "The libSQL admin key (dwk libsql --admin-auth-key), if the server has one."
  type        = string
  sensitive   = true
  default     = null
}

variable "libsql_auth_token" {
  description = "JWT for the libSQL server, if it requires one (dwk libsql --auth-jwt-key-file)."
  type        = string
  sensitive   = true
  default     = null
}

variable "s3_endpoint" {
  description = "Endpoint of the S3 server (versitygw)."
  type        = string
  default     = "http://127.0.0.1:17070"
  nullable    = false
}

variable "s3_region" {
  description = "Region of the S3 server."
  type        = string
  default     = "us-east-1"
  nullable    = false
}

variable "s3_path_style" {
  description = "Path-style bucket addressing (versitygw and most self-hosted servers need it)."
  type        = bool
  default     = true
  nullable    = false
}

variable "s3_access_key" {
  description = "S3 access key (versitygw's ROOT_ACCESS_KEY)."
  type        = string
  nullable    = false
}

variable "s3_secret_key" {
  description = "S3 secret key (versitygw's ROOT_SECRET_KEY)."
  type        = string
  sensitive   = true
  nullable    = false
}

variable "log_level" {
  description = "Replica log level: debug, info, warn or error."
  type        = string
  default     = "info"
  nullable    = false
}

variable "app_token" {
  description = "The Workers project's API_TOKEN secret (make demo generates one into .demo/app-token). Write-only: never stored in the state."
  type        = string
  sensitive   = true
  nullable    = false
}
