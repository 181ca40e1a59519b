terraform {
  required_version = ">= 1.11"
  required_providers {
    dwk = {
      source = "dwk/dwk"
    }
  }
}

# Default connections for every resource; each may also come from the
# environment (DWK_LIBSQL_ADMIN_URL, DWK_S3_ENDPOINT, ...).
provider "dwk" {
  libsql = {
    url         = "http://127.0.0.1:8080"
    admin_url   = "http://127.0.0.1:9090"
    admin_token = var.libsql_admin_token
  }
  s3 = {
    endpoint   = "http://127.0.0.1:7070"
    region     = "us-east-1"
    access_key = var.s3_access_key
    secret_key = var.s3_secret_key
    path_style = true
  }
}

variable "libsql_admin_token" {
  type      = string
  sensitive = true
}

variable "s3_access_key" {
  type = string
}

variable "s3_secret_key" {
  type      = string
  sensitive = true
}
