# The libSQL database (sqld namespace) names of a fleet, computed exactly as
# appliance/fleet/namespaces does in Go: the replicas open these names, so the
# Terraform that creates them must agree to the byte. Names longer than 63
# characters keep a readable prefix and end in "-" and 16 hex digits of the
# SHA-256 of the full name. test/e2e checks this module against the Go code.

terraform {
  required_version = ">= 1.11"
}

locals {
  max_len = 63
  # 63 - 16 hex digits - 1 dash.
  prefix_len = 46

  raw = merge(
    {
      coord  = "dwk-coord-${var.fleet}"
      queues = "dwk-queues-${var.fleet}"
    },
    { for d in var.d1 : "d1:${d}" => "dwk-${var.fleet}-d1-${d}" },
  )

  fitted = {
    for k, s in local.raw : k => (
      length(s) <= local.max_len ? s : "${substr(s, 0, local.prefix_len)}-${substr(sha256(s), 0, 16)}"
    )
  }
}
