// Package funcs builds the table of built-in functions the Terraform language
// offers, with the behaviour of OpenTofu 1.10: string, collection, numeric,
// encoding, hashing, file, template, network, date and type-conversion
// functions, plus try/can and the sensitive-value helpers. Every function is
// also offered under its core:: name (core::abs), as OpenTofu 1.10 does.
//
// It owns only the functions themselves. Evaluating expressions (building the
// hcl.EvalContext, resolving references, choosing when to ask for the pure
// table) belongs to the engine; loading and decoding configuration belongs to
// the parent package config.
//
// Sensitivity travels as the cty mark [SensitiveMark]. Every package that
// marks or inspects sensitive values uses that one constant, so a value made
// sensitive by a variable declaration and one made sensitive by sensitive()
// are indistinguishable.
//
// Unknown arguments never cause errors: a function given an unknown returns a
// typed unknown (refined where the result is known not to be null), so plans
// can be made before every value is known.
package funcs
