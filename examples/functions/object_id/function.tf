# The id of the counter object "lobby", as the replicas compute it.
output "lobby_id" {
  value = provider::dwk::object_id(var.fleet_secret, "Counter", "lobby")
}

variable "fleet_secret" {
  type      = string
  sensitive = true
}
