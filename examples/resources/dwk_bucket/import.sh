# A bucket is imported by its name.
terraform import dwk_bucket.fleet prod-fleet
