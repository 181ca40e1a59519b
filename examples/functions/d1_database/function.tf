# One database per D1 database the workers bind, e.g. "dwk-prod-d1-chat".
resource "dwk_database" "d1" {
  for_each = toset(["chat"])
  name     = provider::dwk::d1_database("prod", each.key)
}
