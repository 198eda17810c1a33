# A small, real project: generate a static site for a named environment,
# render the app's configuration file, and record a release that is
# replaced whenever the configuration changes. Everything runs with
# tenet's built-in providers; nothing is downloaded.

terraform {
  required_providers {
    random = { source = "hashicorp/random" }
    local  = { source = "hashicorp/local" }
  }
}

variable "env" {
  type        = string
  default     = "dev"
  description = "Environment the site is built for."

  validation {
    condition     = contains(["dev", "staging", "prod"], var.env)
    error_message = "The env must be one of dev, staging or prod."
  }
}

variable "pages" {
  type = map(string)
  default = {
    index = "Welcome"
    about = "About this site"
  }
}

locals {
  out_dir = "${path.module}/out/${var.env}"
}

resource "random_pet" "site" {
  length = 2
  prefix = var.env
}

resource "random_password" "db" {
  length  = 24
  special = false
}

module "site" {
  source  = "./modules/site"
  name    = random_pet.site.id
  out_dir = local.out_dir
  pages   = var.pages
}

resource "local_file" "app_config" {
  filename = "${local.out_dir}/app.json"
  content = jsonencode({
    site  = random_pet.site.id
    pages = sort(keys(module.site.files))
    db = {
      user     = "app"
      password = random_password.db.result
    }
  })
  file_permission = "0600"
}

resource "terraform_data" "release" {
  input            = { site = random_pet.site.id, pages = length(module.site.files) }
  triggers_replace = local_file.app_config.content_sha256
}

output "site_name" {
  value = random_pet.site.id
}

output "pages" {
  value = module.site.files
}

output "release_id" {
  value = terraform_data.release.id
}

output "db_password" {
  value     = random_password.db.result
  sensitive = true
}
