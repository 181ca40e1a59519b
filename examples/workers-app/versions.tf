terraform {
  required_version = ">= 1.11"

  required_providers {
    dwk = {
      source = "dwk/dwk"
      # 0.x: any 0.y.z from 0.1.0 on (make install-provider installs scripts/provider-version.sh's).
      version = "~> 0.1"
    }
  }

  # State goes where `terraform init -backend-config=path=...` says
  # (make demo: .demo/terraform.tfstate), else ./terraform.tfstate.
  backend "local" {}
}
