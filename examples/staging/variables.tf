variable "secret" {
  description = "Base secret, at least 32 characters (openssl rand -hex 32); each environment derives its own fleet secret from it. Never stored in the state."
  type        = string
  sensitive   = true
  ephemeral   = true
  nullable    = false
}

variable "artifact" {
  description = "The dwk binary to deploy. Default: bin/dwk of this repository."
  type        = string
  default     = null
}

variable "replicas" {
  description = "Replicas per environment."
  type        = number
  default     = 2
  nullable    = false
}

variable "base_port" {
  description = "First port of this environment (3 per replica). Default: derived from the workspace name."
  type        = number
  default     = null
}

variable "state_dir" {
  description = "Absolute directory the environments' replicas are installed under."
  type        = string
  default     = "/tmp/dwk-staging"
  nullable    = false
}

variable "libsql_url" {
  description = "Hrana URL of the shared libSQL server."
  type        = string
  default     = "http://127.0.0.1:18080"
  nullable    = false
}

variable "libsql_admin_url" {
  description = "Admin API URL of the shared libSQL server."
  type        = string
  default     = "http://127.0.0.1:18081"
  nullable    = false
}

variable "libsql_auth_token" {
  description = "JWT for the libSQL server (EdDSA-signed, with an `exp`). Null falls back to DWK_LIBSQL_AUTH_TOKEN; `make demo`'s stores require one."
  type        = string
  sensitive   = true
  default     = null
}

variable "libsql_admin_token" {
  description = "Admin API key of the libSQL server. Null falls back to DWK_LIBSQL_ADMIN_TOKEN; `make demo`'s stores require one."
  type        = string
  sensitive   = true
  default     = null
}

variable "s3_endpoint" {
  description = "Endpoint of the shared S3 server."
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
  description = "Path-style bucket addressing (most self-hosted S3 servers need it)."
  type        = bool
  default     = true
  nullable    = false
}

variable "s3_access_key" {
  description = "S3 access key."
  type        = string
  nullable    = false
}

variable "s3_secret_key" {
  description = "S3 secret key."
  type        = string
  sensitive   = true
  nullable    = false
}
