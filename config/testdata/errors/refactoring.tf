resource "terraform_data" "b" {}
moved {
  from = terraform_data.a
  to   = terraform_data.b
}
moved {
  from = module.x[0]
  to   = module.y["k"]
}
moved { # ERROR: Invalid "moved" addresses
  from = module.x
  to   = terraform_data.b
}
moved {
  from = "terraform_data.a" # ERROR: Invalid address
  to   = terraform_data.b
}
moved { # ERROR: Missing required argument
  from = terraform_data.a
}
removed {
  from = terraform_data.gone
  lifecycle {
    destroy = true
  }
  provisioner "local-exec" {
    when    = destroy
    command = "echo bye"
  }
}
removed { # WARNING: Missing lifecycle from the removed block
  from = module.old
}
removed {
  from = terraform_data.gone[0] # ERROR: Resource instance address with keys is not allowed
  lifecycle {
    destroy = false
  }
}
removed {
  from = module.old[0].terraform_data.x # ERROR: Module instance address with keys is not allowed
  lifecycle {
    destroy = false
  }
}
removed {
  from = data.terraform_remote_state.x # ERROR: Data source address is not allowed
  lifecycle {
    destroy = false
  }
}
removed { # ERROR: Invalid "removed" block
  from = module.old
  lifecycle {
    destroy = false
  }
  provisioner "local-exec" {
    when    = destroy
    command = "echo"
  }
}
removed {
  from = terraform_data.gone
  lifecycle {
    destroy = true
  }
  provisioner "local-exec" { # ERROR: Invalid "removed.provisioner" block
    command = "echo"
  }
}
import {
  to = terraform_data.b
  id = "b"
}
import {
  for_each = toset(["x"])
  to       = module.m[each.key].terraform_data.c[each.key]
  id       = each.key
  provider = terraform.other # ERROR: Invalid import provider argument
}
import {
  to = data.terraform_remote_state.x # ERROR: Invalid import address
  id = "x"
}
import { # ERROR: Missing required argument
  to = terraform_data.b
}
module "still" {
  source = "./m"
}
removed {
  from = module.still # ERROR: Removed module block still exists
  lifecycle {
    destroy = false
  }
}
removed {
  from = terraform_data.b # ERROR: Removed resource block still exists
  lifecycle {
    destroy = false
  }
}
removed {
  from = module.still.terraform_data.gone
  lifecycle {
    destroy = false
  }
}
