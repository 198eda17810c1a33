variable "cidr" {
  type = string
}

module "route" {
  source = "../shared"
  name   = "route-${var.cidr}"
}

output "name" {
  value = module.route.name
}
