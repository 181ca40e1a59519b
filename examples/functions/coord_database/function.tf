# The coordination database of fleet "prod", created under the name the
# replicas open: "dwk-coord-prod".
resource "dwk_database" "coord" {
  name = provider::dwk::coord_database("prod")
}
