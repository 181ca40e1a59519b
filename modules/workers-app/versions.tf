terraform {
  # 1.11: dwk_fleet's secrets are write-only attributes.
  required_version = ">= 1.11"

  required_providers {
    dwk = {
      source = "dwk/dwk"
      # 0.x: any 0.y.z from 0.1.0 on (make install-provider installs scripts/provider-version.sh's).
      version = "~> 0.1"
    }
  }
}
