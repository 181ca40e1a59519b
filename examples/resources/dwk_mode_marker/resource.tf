# The stores of fleet "prod": its coordination database, its bucket, and the
# mode marker in both, without which no central-mode replica starts.
resource "dwk_database" "coord" {
  name = "dwk-coord-prod" # the coordination database of fleet "prod"
}

resource "dwk_bucket" "fleet" {
  name = "prod-fleet"
}

resource "dwk_mode_marker" "prod" {
  fleet  = "prod"
  bucket = dwk_bucket.fleet.name

  # The marker is written into the database, so it must exist first.
  depends_on = [dwk_database.coord]
}

output "coordination_database" {
  value = dwk_mode_marker.prod.database # "dwk-coord-prod"
}
