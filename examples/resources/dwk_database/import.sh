# A database is imported by its name.
terraform import dwk_database.coord prod-coord
