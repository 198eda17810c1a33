# Provisioner blocks: the types OpenTofu removed get its error;
# destroy-time provisioners (and the resource's connection, when one
# exists) may refer only to the object.
resource "terraform_data" "a" {
  provisioner "local-exec" {
    command = "echo created ${terraform_data.b.id}"
  }
  provisioner "local-exec" {
    when       = destroy
    on_failure = continue
    command    = "echo destroyed ${self.id} ${path.module}"
  }
}

resource "terraform_data" "b" {
  connection {
    host = "example.com"
  }
  provisioner "remote-exec" {
    inline = ["true"]
  }
  provisioner "chef" { # ERROR: The "chef" provisioner has been removed
  }
}

resource "terraform_data" "c" {
  count = 2
  connection {
    host = terraform_data.b.id # ERROR: Invalid reference from destroy provisioner
  }
  provisioner "local-exec" {
    when    = destroy
    command = "echo ${count.index} ${terraform_data.b.id}" # ERROR: Invalid reference from destroy provisioner
    connection {
      user = var.user # ERROR: Invalid reference from destroy provisioner
    }
  }
  provisioner "local-exec" {
    when       = later # ERROR: Invalid "when" keyword
    on_failure = "continue" # WARNING: Quoted keywords are deprecated
    command    = "x"
    lifecycle {} # ERROR: Reserved block type name in provisioner block
  }
  provisioner "local-exec" {
    on_failure = stop # ERROR: Invalid "on_failure" keyword
    command    = "x"
    connection {
      host = "a"
    }
    connection { # ERROR: Duplicate connection block
      host = "b"
    }
  }
}

variable "user" {
  default = "u"
}
