module "vpc" {
  source  = "hashicorp/vpc/aws"
  version = "~> 1.0"
  cidr    = "10.0.0.0/16"
}

module "net" {
  source = "git::https://example.com/net.git//modules/subnet?ref=v2"
}
