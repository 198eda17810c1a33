# The same configuration with the local provider mocked: nothing is
# written to disk, and the site name is fixed by an override so the
# assertions can name it.

mock_provider "local" {}

override_resource {
  target = random_pet.site
  values = {
    id = "dev-fixed-name"
  }
}

run "names_flow_through" {
  assert {
    condition     = output.site_name == "dev-fixed-name"
    error_message = "The site name comes from random_pet.site."
  }
  assert {
    condition     = jsondecode(local_file.app_config.content).site == "dev-fixed-name"
    error_message = "The app configuration names the site."
  }
  assert {
    condition     = output.pages == { about = "./out/dev/about.html", index = "./out/dev/index.html" }
    error_message = "Pages are named after var.pages: ${jsonencode(output.pages)}."
  }
}
