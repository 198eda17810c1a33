module "again" {
  source = "git::file:///tmp/tenet-modrec/repo.git//shared?ref=v1.0.0"
  name   = "again"
}

output "name" {
  value = module.again.name
}
