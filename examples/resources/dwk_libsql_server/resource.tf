# The provider that creates the server. A provider block that takes the
# server's outputs (below) must be another one: Terraform would see a cycle.
provider "dwk" {
  alias = "hosts"
  ssh   = { private_key = file("~/.ssh/dwk_deploy") }
}

resource "dwk_libsql_server" "db" {
  provider = dwk.hosts

  host = {
    address  = "10.0.0.4"
    host_key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIExampleExampleExampleExampleExampleExample"
  }
  artifact = "bin/dwk"

  backup = {
    bucket     = "acme-libsql-backup"
    prefix     = "libsql/prod/"
    endpoint   = "https://s3.example.net"
    access_key = "AKIAEXAMPLE"
    secret_key = var.backup_secret_key # write-only: never in the state
    path_style = true
  }
}

variable "backup_secret_key" {
  type      = string
  sensitive = true
}

# Everything else in the configuration uses the server.
provider "dwk" {
  ssh = { private_key = file("~/.ssh/dwk_deploy") }
  libsql = {
    url         = dwk_libsql_server.db.url
    admin_url   = dwk_libsql_server.db.admin_url
    auth_token  = dwk_libsql_server.db.auth_token
    admin_token = dwk_libsql_server.db.admin_token
  }
}
