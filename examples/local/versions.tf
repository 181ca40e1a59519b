terraform {
  required_version = ">= 1.11"

  required_providers {
    dwk = {
      source = "dwk/dwk"
    }
  }

  # State goes where `terraform init -backend-config=path=...` says
  # (make demo: .demo/terraform.tfstate), else ./terraform.tfstate.
  backend "local" {}
}
