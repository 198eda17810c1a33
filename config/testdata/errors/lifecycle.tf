variable "cbd" {
  default = true
}
resource "terraform_data" "literal" {
  lifecycle {
    create_before_destroy = true
    prevent_destroy       = false
    ignore_changes        = [input, triggers_replace[0], tags["Name"]]
  }
}
resource "terraform_data" "not_literal" {
  lifecycle {
    create_before_destroy = var.cbd # ERROR: Variables not allowed
    prevent_destroy       = "maybe" # ERROR: Unsuitable value type
  }
}
resource "terraform_data" "all" {
  lifecycle {
    ignore_changes = all
  }
}
resource "terraform_data" "quoted" {
  lifecycle {
    ignore_changes = ["input"] # WARNING: Quoted references are deprecated
  }
}
resource "terraform_data" "wildcard" {
  lifecycle {
    ignore_changes = ["*"] # ERROR: Invalid ignore_changes wildcard
  }
}
resource "terraform_data" "mixed" {
  lifecycle {
    ignore_changes = ["*", input] # ERROR: Invalid ignore_changes ruleset
  }
}
resource "terraform_data" "expression" {
  lifecycle {
    ignore_changes = [input[var.cbd]] # ERROR: Invalid ignore_changes reference
  }
}
resource "terraform_data" "keyword" {
  lifecycle {
    ignore_changes = none # ERROR: Invalid ignore_changes keyword
  }
}
data "terraform_remote_state" "d" {
  backend = "local"
  lifecycle {
    create_before_destroy = true # ERROR: Invalid data resource lifecycle argument
    ignore_changes        = all  # ERROR: Invalid data resource lifecycle argument
  }
}
resource "terraform_data" "unknown_arg" {
  lifecycle {
    destroy = true # ERROR: Unsupported argument
  }
}
resource "terraform_data" "triggers" {
  for_each = toset(["a"])
  lifecycle {
    replace_triggered_by = [
      terraform_data.literal,
      terraform_data.all[each.key].output,
      terraform_data.literal[each.value], # ERROR: Invalid each reference in replace_triggered_by expression
      var.cbd, # ERROR: Invalid reference in replace_triggered_by expression
      "x", # ERROR: Missing resource reference in replace_triggered_by expression
      [terraform_data.literal, terraform_data.all], # ERROR: Multiple resource references in replace_triggered_by expression
    ]
  }
}
