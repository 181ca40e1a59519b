terraform {
  # 1.8: provider functions; 1.11 as the other modules.
  required_version = ">= 1.11"

  required_providers {
    dwk = {
      source = "dwk/dwk"
    }
  }
}
