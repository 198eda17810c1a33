// Package config loads Terraform-language configuration (*.tf and *.tf.json)
// from an [fs.FS] and decodes it statically: the blocks of every module in
// the tree become [Module], [Resource], [Variable], [Output], [ModuleCall],
// [Moved], [Removed] and [Import] values that keep their expressions and
// bodies as hcl values together with their source ranges.
//
// It does not evaluate resource, provider or module-call bodies: that needs
// provider schemas and values produced during the plan walk, so the engine
// does it. What this package does evaluate are the arguments the language
// requires to be literal (lifecycle flags, variable types and defaults,
// addresses in moved/removed/import blocks), and it reports every static
// error with its file and line.
//
// It also computes, before anything else, the values OpenTofu evaluates
// early (static.go, staticfields.go): module sources and versions, and
// the backend block's arguments ([Module.StaticBody]). They may use
// variables, locals, path.*, terraform.workspace and functions; the root
// module's variable values come from the caller ([StaticInputs]: the CLI
// collects them and asks for missing ones), a child's from its call's
// arguments computed early in the parent. [ReadModule] reads one module
// directory this way for module installation.
//
// It also owns: the references an expression or body makes ([ReferencesInExpr],
// [ReferencesInBody]), input variable values from the environment, tfvars
// files and the command line ([CollectVariableValues]), canonical
// formatting ([Format]) and the `configuration` object of the JSON plan
// ([MarshalConfigurationJSON]). The function table lives in config/funcs.
//
// Override files (override.tf, *_override.tf and their .tf.json forms) are
// merged into the primary blocks they name after all primary files are
// read. Checks that need the whole tree but no evaluation (module call
// arguments against the child's variables, removed blocks whose target
// is still declared) run in [Load]; checks that need expansion (moved
// objects that still exist, import targets) are the engine's.
//
// [Load] reads only local module sources ("./x", "../x"). Modules with
// registry, git or https sources are read by [LoadWithModules] from the
// directories `init` installed them in (config/modinstall), as listed by
// the modules.json manifest ([ReadModuleManifest]); this package reads
// that manifest but never fetches anything.
package config
