// Package libsqladmin is a client for sqld's admin API, which creates and
// deletes namespaces (databases) on sqld and on dwk libsql. dwk uses it for
// D1 databases, the packs that hold Durable Objects and the coordination
// database, and the Terraform provider for dwk_database.
//
// Authentication is sqld's: "Authorization: Basic <admin key>" (the key
// itself, not base64 of user:password), sent when [Config.AdminKey] is set.
//
// [Client.Create] is idempotent: a namespace that already exists is not an
// error. Operations on a missing namespace fail with an error wrapping
// [ErrNotFound].
package libsqladmin
