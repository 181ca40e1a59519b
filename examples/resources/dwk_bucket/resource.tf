# The fleet's bucket: R2 bindings and the mode marker.
resource "dwk_bucket" "fleet" {
  name = "prod-fleet"
}

# A disposable bucket: destroy deletes its objects first.
resource "dwk_bucket" "staging" {
  name          = "staging-fleet"
  force_destroy = true
}
