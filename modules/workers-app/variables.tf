variable "fleet" {
  description = "The name of the fleet that runs the project (modules/fleet's `name`): the D1 databases are named after it."
  type        = string
  nullable    = false
}

variable "project" {
  description = "The Workers project: its wrangler file (wrangler.jsonc, wrangler.json, wrangler.toml) or the directory holding one, on the machine running Terraform, with its npm packages installed. Use `path.module`."
  type        = string
  nullable    = false
}

variable "env" {
  description = "The wrangler environment to deploy (wrangler's `--env`). Default: the top level."
  type        = string
  default     = null
}

variable "routes" {
  description = "URL path prefixes the worker serves on the fleet. Default (null): every path (`/`), unless another worker of the fleet serves `/`; then `/<name>/`."
  type        = list(string)
  default     = null
}

variable "deletion_protection" {
  description = "Refuse to destroy the project's D1 databases (dwk_database `deletion_protection`). Set false for disposable environments."
  type        = bool
  default     = true
  nullable    = false
}
