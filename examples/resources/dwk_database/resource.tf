# The fleet's coordination database.
resource "dwk_database" "coord" {
  name = "prod-coord"
}

# A D1 database, blocked for writes during a migration, on another server.
resource "dwk_database" "chat" {
  name         = "chat"
  block_writes = true
  block_reason = "migration in progress"

  libsql = {
    admin_url   = "http://10.0.0.9:9090"
    admin_token = var.other_admin_token
  }
}

variable "other_admin_token" {
  type      = string
  sensitive = true
}
