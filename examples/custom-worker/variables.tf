variable "artifact" {
  description = "Your dwk build: `go build -o bin/dwk-hello .` in this directory makes it."
  type        = string
  nullable    = false
}

variable "fleet_secret" {
  description = "Fleet secret, at least 32 characters (openssl rand -hex 32). Never stored in the state."
  type        = string
  sensitive   = true
  ephemeral   = true
  nullable    = false
}

variable "name" {
  description = "Fleet name."
  type        = string
  default     = "hello"
  nullable    = false
}

variable "greeting" {
  description = "What the hello worker says (its GREETING variable)."
  type        = string
  default     = "Hello"
  nullable    = false
}

variable "state_dir" {
  description = "Absolute directory the replicas are installed under."
  type        = string
  default     = "/tmp/dwk-hello"
  nullable    = false

  validation {
    condition     = startswith(var.state_dir, "/")
    error_message = "state_dir must be an absolute path."
  }
}

variable "replicas" {
  description = "Number of replicas on this machine."
  type        = number
  default     = 2
  nullable    = false
}

variable "base_port" {
  description = "Replica n (from 0) serves on base_port + 10n, with its internal and admin listeners on the next two ports."
  type        = number
  default     = 8887
  nullable    = false
}

variable "libsql_url" {
  description = "Hrana URL of the libSQL server."
  type        = string
  default     = "http://127.0.0.1:18080"
  nullable    = false
}

variable "libsql_admin_url" {
  description = "Admin API URL of the libSQL server."
  type        = string
  default     = "http://127.0.0.1:18081"
  nullable    = false
}

variable "libsql_auth_token" {
  description = "JWT for the libSQL server, if it requires one."
  type        = string
  sensitive   = true
  default     = null
}

variable "s3_endpoint" {
  description = "Endpoint of the S3 server."
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
