variable "fleet" {
  description = "Fleet name (`fleet.name`): 1-63 characters of a-z, 0-9 and '-', starting and ending with a letter or digit."
  type        = string
  nullable    = false

  validation {
    condition     = can(regex("^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$", var.fleet))
    error_message = "The fleet name must be 1-63 characters of a-z, 0-9 and '-', starting and ending with a letter or digit."
  }
}

variable "d1" {
  description = "D1 database names (the right-hand side of the workers' `bindings.d1`), each mapped to its libSQL database in `d1`."
  type        = set(string)
  default     = []
  nullable    = false
}
