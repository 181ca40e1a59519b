output "urls" {
  description = "The replicas' public URLs: put DNS or a load balancer in front of them."
  value       = module.fleet.urls
}

output "libsql_url" {
  description = "The libSQL server's Hrana URL."
  value       = dwk_libsql_server.db.url
}

output "libsql_read_only_token" {
  description = "A read-only JWT for the libSQL server (e.g. for reporting), valid until libsql_tokens_expire."
  value       = dwk_libsql_server.db.read_only_token
  sensitive   = true
}

output "libsql_tokens_expire" {
  description = "When the libSQL tokens expire; a plan in the last quarter of their lifetime renews them."
  value       = dwk_libsql_server.db.tokens_expire
}

output "backup" {
  description = "Where the libSQL server's continuous backup goes (dwk libsql restore reads it back)."
  value       = "s3://${dwk_bucket.backup.name}/libsql/${var.name}/"
}
