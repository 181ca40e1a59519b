# Read a Workers project's wrangler file, and create the D1 databases it
# declares, without naming them again in HCL.
data "dwk_wrangler_config" "shop" {
  path = "${path.module}/shop" # a directory holding wrangler.jsonc, or the file
  env  = "production"
}

resource "dwk_database" "d1" {
  for_each = toset([for db in data.dwk_wrangler_config.shop.d1_databases : db.database_name])
  name     = provider::dwk::d1_database("prod", each.key)
}

# The same bindings, by binding name, as a dwk_fleet worker's bindings.
locals {
  shop_bindings = {
    d1     = { for db in data.dwk_wrangler_config.shop.d1_databases : db.binding => db.database_name }
    r2     = { for b in data.dwk_wrangler_config.shop.r2_buckets : b.binding => b.bucket_name }
    queues = { for q in data.dwk_wrangler_config.shop.queue_producers : q.binding => q.queue }
  }
}
