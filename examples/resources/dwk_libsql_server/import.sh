# ssh://USER@ADDRESS:PORT/INSTALL_DIR with the host's public SSH key,
# URL-encoded, and the resource's name when it is not "libsql".
terraform import dwk_libsql_server.db 'ssh://root@10.0.0.4:22/opt/dwk/libsql?host_key=ssh-ed25519%20AAAAC3NzaC1lZDI1NTE5AAAAIExample'
