# Ask each replica of a fleet for its state, through SSH.
data "dwk_fleet_status" "prod" {
  hosts = [for ip in ["10.0.0.5", "10.0.0.6", "10.0.0.7"] : {
    address     = ip
    private_key = file("~/.ssh/dwk_deploy")
    host_key    = file("${path.module}/host-keys/${ip}.pub")
  }]
  admin_token = dwk_fleet.prod.admin_token
}

output "ready_replicas" {
  value = data.dwk_fleet_status.prod.ready
}
