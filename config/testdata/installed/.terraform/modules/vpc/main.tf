variable "cidr" {
  type = string
}

output "id" {
  value = "vpc-${var.cidr}"
}
