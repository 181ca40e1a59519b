# A mode marker is imported by fleet name and bucket (or by fleet name alone:
# the next apply then writes the bucket copy the configuration names).
terraform import dwk_mode_marker.prod prod/prod-fleet
