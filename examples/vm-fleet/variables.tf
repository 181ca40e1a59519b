variable "name" {
  description = "Fleet name: 1-63 characters of a-z, 0-9 and -."
  type        = string
  default     = "vm"
}

variable "fleet_secret" {
  description = "Fleet secret, at least 32 characters (e.g. openssl rand -hex 32). Write-only: never stored in the state."
  type        = string
  sensitive   = true
  ephemeral   = true
}

variable "artifact" {
  description = "Path of the dwk binary for the hosts (GOOS=linux GOARCH=amd64 make build writes bin/dwk)."
  type        = string
  default     = "../../bin/dwk"
}

variable "ssh_private_key_file" {
  description = "SSH private key that logs in to every host."
  type        = string
  default     = "~/.ssh/dwk_deploy"
}

variable "libsql_host" {
  description = <<-EOT
    The host of the libSQL server: `address`, `host_key` (its public SSH host key, e.g. the content of
    /etc/ssh/ssh_host_ed25519_key.pub), and optionally `user` (default "root"), `port` (22), `listen`, the address its
    listeners bind (default "0.0.0.0"), and `install_dir` (default "/opt/dwk/libsql"; the data dir is its data/).
  EOT
  type = object({
    address     = string
    host_key    = string
    user        = optional(string)
    port        = optional(number)
    listen      = optional(string, "0.0.0.0")
    install_dir = optional(string)
  })
}

variable "replica_hosts" {
  description = <<-EOT
    The replicas' hosts, one replica each: `address`, `host_key`, and optionally `user`, `port`, `listen` (the address the
    public and internal listeners bind, default "0.0.0.0"), `admin_listen` (the admin listener's, default "127.0.0.1":
    Terraform reaches it through SSH) and `install_dir` (default "/opt/dwk/<name>").
  EOT
  type = list(object({
    address      = string
    host_key     = string
    user         = optional(string)
    port         = optional(number)
    listen       = optional(string, "0.0.0.0")
    admin_listen = optional(string, "127.0.0.1")
    install_dir  = optional(string)
  }))
}

variable "libsql_port" {
  description = "Port of the libSQL server's Hrana API."
  type        = number
  default     = 8080
}

variable "libsql_admin_port" {
  description = "Port of the libSQL server's admin API (it requires the admin key)."
  type        = number
  default     = 8081
}

variable "libsql_tls_cert_file" {
  description = "Optional PEM certificate for the libSQL server (then https://); the replicas and the provider trust it as their libSQL CA, so a self-signed certificate for libsql_host.address works."
  type        = string
  default     = null
}

variable "libsql_tls_key_file" {
  description = "The private key of libsql_tls_cert_file."
  type        = string
  default     = null
}

variable "public_port" {
  description = "The replicas' front door."
  type        = number
  default     = 8787
}

variable "internal_port" {
  description = "The replicas' internal (mutual TLS) listener."
  type        = number
  default     = 8788
}

variable "admin_port" {
  description = "The replicas' admin listener."
  type        = number
  default     = 8789
}

variable "s3_endpoint" {
  description = "Your S3 endpoint URL, as Terraform and the hosts reach it (null: AWS)."
  type        = string
  default     = null
}

variable "s3_region" {
  description = "S3 region."
  type        = string
  default     = "us-east-1"
}

variable "s3_access_key" {
  description = "S3 access key id."
  type        = string
  default     = null
}

variable "s3_secret_key" {
  description = "S3 secret access key. Written to the hosts, never stored in the state."
  type        = string
  default     = null
  sensitive   = true
}

variable "s3_path_style" {
  description = "Path-style bucket addressing (most self-hosted S3 servers)."
  type        = bool
  default     = false
}

variable "bucket" {
  description = "Bucket of the fleet's blobs. Default: dwk-<name> (names are global on AWS: set one)."
  type        = string
  default     = null
}

variable "backup_bucket" {
  description = "Bucket of the libSQL server's continuous backup. Default: <name>-libsql-backup."
  type        = string
  default     = null
}

variable "force_destroy" {
  description = "Let terraform destroy delete the data: the libSQL data dir, the databases, and both buckets with what they hold. Default: false (destroy refuses, and keeps the data dir and the backups)."
  type        = bool
  default     = false
}

variable "tls" {
  description = "Automatic HTTPS on the replicas' front doors (see modules/fleet's `tls`): `domains`, and optionally `email`, `acme_ca`, `acme_ca_root` and `shared`. Set `public_port` to 443 so that port 80 redirects to it. Default: null (plain HTTP on `public_port`)."
  type = object({
    domains      = list(string)
    email        = optional(string)
    acme_ca      = optional(string)
    acme_ca_root = optional(string)
    shared       = optional(bool)
  })
  default = null
}
