terraform {
  required_version = ">= 1.11"

  required_providers {
    dwk = {
      source = "dwk/dwk"
    }
  }
}
