variable "typed" {
  type    = map(object({ a = string, b = optional(number, 3) }))
  default = { x = { a = "y" } }
}
variable "quoted_type" {
  type = "list" # ERROR: Invalid quoted type constraints
}
variable "bad_default" {
  type    = number
  default = "nope" # ERROR: Invalid default value for variable
}
variable "not_nullable" {
  nullable = false
  default  = null # ERROR: Invalid default value for variable
}
variable "count" {} # ERROR: Invalid variable name
variable "bad type" {} # ERROR: Invalid variable name
variable "validated" {
  validation { # ERROR: Missing required argument
    condition = var.validated != ""
  }
}
variable "type_expr" {
  type = list(strin) # ERROR: Invalid type specification
}
