terraform {
  # 1.11: dwk_fleet's secret is a write-only attribute.
  required_version = ">= 1.11"

  required_providers {
    dwk = {
      source = "dwk/dwk"
    }
  }
}
