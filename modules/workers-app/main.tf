# A Workers project's stores, created from its wrangler file: every D1
# database it declares, with its migrations applied. The project's R2
# buckets, KV namespaces and queues live in the fleet's bucket and
# coordination databases and need nothing created. Give `worker` to the
# fleet's workers, and make the fleet depend on this module: migrations
# then run before any replica rolls to code that needs them, and a failing
# one stops the apply with its name before any replica rolls.

data "dwk_wrangler_config" "this" {
  path = var.project
  env  = var.env
}

locals {
  # By dwk database: a database two bindings share is created once.
  d1 = { for db in data.dwk_wrangler_config.this.d1_databases : db.store => db... }
}

resource "dwk_database" "d1" {
  for_each            = local.d1
  name                = provider::dwk::d1_database(var.fleet, each.key)
  deletion_protection = var.deletion_protection
}

# A database whose migrations directory holds no file yet has nothing to
# apply.
resource "dwk_d1_migrations" "d1" {
  for_each       = { for store, dbs in local.d1 : store => dbs[0] if length(fileset(dbs[0].migrations_dir, "**")) > 0 }
  database       = dwk_database.d1[each.key].name
  migrations_dir = each.value.migrations_dir
}
