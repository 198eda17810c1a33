# Tests of the starter example, run with `tenet test` (or `tofu test`)
# in examples/starter. The apply runs write the site under out/ and the
# test destroys it again at the end.

run "plan_defaults" {
  command = plan

  assert {
    condition     = random_pet.site.prefix == "dev"
    error_message = "The site name is prefixed with the environment."
  }
  assert {
    condition     = local_file.app_config.filename == "./out/dev/app.json"
    error_message = "The app configuration goes to out/ENV/app.json, not ${local_file.app_config.filename}."
  }
}

run "unknown_env_is_refused" {
  command = plan

  variables {
    env = "qa"
  }

  expect_failures = [var.env]
}

run "apply_staging" {
  variables {
    env = "staging"
  }

  assert {
    condition     = startswith(output.site_name, "staging-")
    error_message = "The site name ${output.site_name} does not start with the environment."
  }
  assert {
    condition     = length(output.pages) == 2 && contains(keys(output.pages), "about")
    error_message = "One page is written per entry of var.pages."
  }
  assert {
    condition     = jsondecode(local_file.app_config.content).site == output.site_name
    error_message = "The app configuration names the site."
  }
  assert {
    condition     = terraform_data.release.output.pages == 2
    error_message = "The release records the number of pages."
  }
}

run "site_module" {
  module {
    source = "./modules/site"
  }

  variables {
    name    = "unit"
    out_dir = "out/unit"
    pages   = { a = "Page A" }
  }

  assert {
    condition     = output.files == { a = "out/unit/a.html" }
    error_message = "The module writes one file per page: ${jsonencode(output.files)}."
  }
  assert {
    condition     = strcontains(local_file.page["a"].content, "<title>unit: a</title>")
    error_message = "The page title names the site and the page."
  }
}
