# A condition that refers to nothing is a constant: it checks nothing.
variable "n" {
  default = 1
  validation {
    condition     = 1 > 0 # ERROR: Invalid validation expression # ERROR: Invalid variable validation condition
    error_message = "never."
  }
}
resource "terraform_data" "a" {
  lifecycle {
    precondition {
      condition     = true # ERROR: Invalid precondition expression
      error_message = "always."
    }
    postcondition {
      condition     = self.output != null
      error_message = "refers to self: fine."
    }
  }
}
output "o" {
  value = var.n
  precondition {
    condition     = var.n > 0
    error_message = "refers to a variable: fine."
  }
}
check "constant" { # ERROR: Zero assert blocks
  assert {
    condition     = "a" == "b" # ERROR: Invalid assert expression
    error_message = "never."
  }
}
check "referring" {
  assert {
    condition     = terraform_data.a.output != null
    error_message = "fine."
  }
}
check "two_reads" {
  data "terraform_remote_state" "one" {
    backend = "local"
  }
  data "terraform_remote_state" "two" { # ERROR: Multiple data resource blocks
    backend = "local"
  }
  assert {
    condition     = data.terraform_remote_state.one.outputs != null
    error_message = "fine."
  }
}
