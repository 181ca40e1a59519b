terraform {
  required_version = ">= 1.11"

  required_providers {
    dwk = {
      source = "dwk/dwk"
    }
  }

  # State goes where `terraform init -backend-config=path=...` says
  # (test/e2e puts it in a temp dir), else ./terraform.tfstate.
  backend "local" {}
}
