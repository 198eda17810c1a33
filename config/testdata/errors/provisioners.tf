# tenet runs no provisioners: each block is refused where it stands, so a
# configuration that relies on one never plans as if it were not there.
resource "terraform_data" "a" {
  provisioner "local-exec" { # ERROR: Provisioners are not supported
    command = "echo created"
  }
  provisioner "local-exec" { # ERROR: Provisioners are not supported
    when       = destroy
    on_failure = continue
    command    = "echo destroyed"
  }
}

resource "terraform_data" "b" {
  connection {
    host = "example.com"
  }
  provisioner "remote-exec" { # ERROR: Provisioners are not supported
    inline = ["true"]
  }
}
