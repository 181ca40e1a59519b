# One staging environment per Terraform workspace, all on one shared libSQL
# server and one shared S3 server, sharing nothing else:
#
#   terraform workspace new pr-42 && terraform apply
#   terraform workspace select pr-42 && terraform destroy
#
# Each environment is the fleet "staging-<workspace>" with its own
# databases, bucket, mode marker, derived secret and ports.

provider "dwk" {
  libsql = {
    url         = var.libsql_url
    admin_url   = var.libsql_admin_url
    auth_token  = var.libsql_auth_token
    admin_token = var.libsql_admin_token
  }
  s3 = {
    endpoint   = var.s3_endpoint
    region     = var.s3_region
    access_key = var.s3_access_key
    secret_key = var.s3_secret_key
    path_style = var.s3_path_style
  }
}

module "staging" {
  source = "../../modules/staging"

  secret    = var.secret
  artifact  = var.artifact != null ? var.artifact : abspath("${path.root}/../../bin/dwk")
  replicas  = var.replicas
  base_port = var.base_port
  state_dir = var.state_dir
}
