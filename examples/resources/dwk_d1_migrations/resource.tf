# A Workers project's D1 databases, created and migrated from its wrangler
# file, before the fleet rolls to code that needs the new schema.
data "dwk_wrangler_config" "shop" {
  path = "${path.module}/shop"
}

locals {
  shop_d1 = { for db in data.dwk_wrangler_config.shop.d1_databases : db.database_name => db }
}

resource "dwk_database" "d1" {
  for_each = local.shop_d1
  name     = provider::dwk::d1_database("prod", each.key)
}

resource "dwk_d1_migrations" "shop" {
  for_each       = local.shop_d1
  database       = dwk_database.d1[each.key].name
  migrations_dir = each.value.migrations_dir
}

# dwk_fleet "prod" { ... depends_on = [dwk_d1_migrations.shop] }
