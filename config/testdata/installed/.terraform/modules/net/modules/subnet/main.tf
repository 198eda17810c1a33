module "route" {
  source = "../route"
}
