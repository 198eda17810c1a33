variable "needed" {}
