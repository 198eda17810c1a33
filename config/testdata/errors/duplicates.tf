resource "terraform_data" "a" {}
resource "terraform_data" "a" {} # ERROR: Duplicate resource "terraform_data" configuration
data "terraform_remote_state" "s" {
  backend = "local"
}
data "terraform_remote_state" "s" { # ERROR: Duplicate data "terraform_remote_state" configuration
  backend = "local"
}
variable "v" {}
variable "v" {} # ERROR: Duplicate variable declaration
output "o" {
  value = 1
}
output "o" { # ERROR: Duplicate output definition
  value = 2
}
locals {
  l = 1
}
locals {
  l = 2 # ERROR: Duplicate local value definition
}
module "m" {
  source = "./m"
}
module "m" { # ERROR: Duplicate module call
  source = "./m"
}
provider "aws" {}
provider "aws" {} # ERROR: Duplicate provider configuration
provider "aws" {
  alias = "west"
}
