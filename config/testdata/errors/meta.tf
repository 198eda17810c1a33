resource "terraform_data" "both" {
  count    = 1
  for_each = toset([]) # ERROR: Invalid combination of "count" and "for_each"
}
resource "terraform_data" "deps" {
  depends_on = [
    terraform_data.both,
    var.x, # ERROR: Invalid depends_on reference
    terraform_data.both[0].id,
    "terraform_data.both", # WARNING: Quoted references are deprecated
  ]
}
resource "terraform_data" "bad_provider" {
  provider = aws.west.x # ERROR: Invalid provider reference
}
resource "terraform_data" "1bad" {} # ERROR: Invalid resource name
resource "terraform_data" "reserved" {
  _ {} # ERROR: Reserved block type name in resource block
}
thing "x" {} # ERROR: Unsupported block type
variable "x" {}
output "no_value" { # ERROR: Missing required argument
}
module "remote" {
  source = "hashicorp/consul/aws" # ERROR: Module source not supported
}
module "inputs" {
  source = "./m"
  x      = 2
  y      = 3 # ERROR: Unsupported argument
}
module "missing_input" { # ERROR: Missing required argument
  source = "./req"
}
