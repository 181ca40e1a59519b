# Ask each replica of a fleet for its state, through SSH.
data "dwk_fleet_status" "prod" {
  hosts = [for ip in ["10.0.0.5", "10.0.0.6", "10.0.0.7"] : {
    address     = ip
    host_key    = file("${path.module}/host-keys/${ip}.pub")
    install_dir = "/opt/dwk/prod" # the admin token is read back from its dwk.json
  }]
  # The SSH key comes from the provider's ssh block (or ssh-agent): a data
  # source's arguments are stored in the state.
}

output "ready_replicas" {
  value = data.dwk_fleet_status.prod.ready
}
