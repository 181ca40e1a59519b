variable "name" {
  description = "Fleet name."
  type        = string
  default     = "prod"
  nullable    = false
}

variable "fleet_secret" {
  description = "Fleet secret, at least 32 characters (openssl rand -hex 32). Never stored in the state; keep it in your secret store and pass it on every apply (TF_VAR_fleet_secret)."
  type        = string
  sensitive   = true
  ephemeral   = true
  nullable    = false
}

variable "artifact" {
  description = "The dwk binary to deploy (built for the hosts' OS and architecture, e.g. GOOS=linux GOARCH=amd64 make build)."
  type        = string
  nullable    = false
}

variable "hosts" {
  description = "The VMs, one replica each: `address` (IP or DNS name the provider reaches over SSH and the other replicas over the private network) and `host_key` (its public SSH host key, authorized_keys format, obtained out of band). `user` defaults to root; a non-root user needs passwordless sudo for systemd."
  type = list(object({
    address  = string
    host_key = string
    user     = optional(string)
    port     = optional(number)
  }))
  nullable = false

  validation {
    condition     = length(var.hosts) >= 1
    error_message = "Give at least one host."
  }
}

variable "ssh_private_key_file" {
  description = "File holding the SSH private key (PEM, unencrypted) whose public half is in the hosts' authorized_keys."
  type        = string
  default     = "~/.ssh/dwk_deploy"
  nullable    = false
}

variable "libsql_url" {
  description = "Hrana URL of the libSQL server (sqld, Turso or dwk libsql), as both Terraform and the hosts reach it."
  type        = string
  nullable    = false
}

variable "libsql_admin_url" {
  description = "Admin API URL of the libSQL server (sqld --admin-listen-addr)."
  type        = string
  nullable    = false
}

variable "libsql_auth_token" {
  description = "JWT the replicas and Terraform send to the libSQL server: EdDSA-signed, with an `exp` (dwk libsql refuses tokens without one). A server that checks no token is one anybody on the network can read and write."
  type        = string
  sensitive   = true
  nullable    = false
}

variable "libsql_admin_token" {
  description = "Admin API key of the libSQL server (dwk libsql or sqld --admin-auth-key)."
  type        = string
  sensitive   = true
  nullable    = false
}

variable "libsql_ca_file" {
  description = "PEM file of the CA that the libSQL server's TLS certificate chains to, when the system does not trust it (a private CA); copied to the hosts. Null for a certificate of a public CA."
  type        = string
  default     = null
}

variable "s3_endpoint" {
  description = "S3 endpoint URL; null for AWS S3 in s3_region."
  type        = string
  default     = null
}

variable "s3_region" {
  description = "S3 region."
  type        = string
  default     = "us-east-1"
  nullable    = false
}

variable "s3_path_style" {
  description = "Path-style bucket addressing (most self-hosted S3 servers need it)."
  type        = bool
  default     = false
  nullable    = false
}

variable "s3_access_key" {
  description = "S3 access key; null to use the AWS SDK's default credentials (environment, shared files, instance role)."
  type        = string
  default     = null
}

variable "s3_secret_key" {
  description = "S3 secret key."
  type        = string
  sensitive   = true
  default     = null
}

variable "bucket" {
  description = "The fleet's bucket name (S3 bucket names are global on AWS). Default: dwk-<name>."
  type        = string
  default     = null
}
