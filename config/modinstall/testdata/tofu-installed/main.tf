module "net" {
  source = "git::file:///tmp/tenet-modrec/repo.git//net?ref=v1.0.0"
  cidr   = "10.0.0.0/16"
}

module "shallow" {
  source = "git::file:///tmp/tenet-modrec/repo.git//shared?ref=feature&depth=1"
  name   = "shallow"
}

module "local" {
  source = "./local"
}

output "names" {
  value = [module.net.name, module.shallow.name, module.local.name]
}
