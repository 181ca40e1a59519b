output "worker" {
  description = "The project as an element of the fleet's `workers` (modules/fleet; for dwk_fleet, merge() its `secrets` in)."
  value = {
    name    = data.dwk_wrangler_config.this.name
    project = data.dwk_wrangler_config.this.config_path
    env     = var.env
    routes  = var.routes
  }
}

output "name" {
  description = "The worker's name, as its wrangler file gives it."
  value       = data.dwk_wrangler_config.this.name
}

output "d1_databases" {
  description = "The project's D1 databases: binding → the fleet's libSQL database."
  value       = { for db in data.dwk_wrangler_config.this.d1_databases : db.binding => dwk_database.d1[db.store].name }
}

output "migrations" {
  description = "The migrations applied to each D1 database, by dwk database name, in order."
  value       = { for store, m in dwk_d1_migrations.d1 : store => m.applied }
}

output "secret_names" {
  description = "The secrets the project's wrangler file requires (`secrets.required`): give each a value in the worker's `secrets`."
  value       = data.dwk_wrangler_config.this.required_secrets
}
