// Package attrpath owns the one attribute path of tenet: a place inside a
// resource's value (tags["Name"], rule[0].port), held as a cty.Path, and
// every other form such a path takes, each converted here and nowhere
// else:
//
//   - the planning rules' step list (Steps, FromSteps): an array whose
//     steps are a string (an attribute name, or a key when it meets a
//     map), an int (an index) or a MapKey (an explicit map key);
//   - the display string, as HCL writes it, for explain facts and
//     messages (String);
//   - an identity key for de-duplicating and ordering paths (ID);
//   - a reference's or ignore_changes element's hcl.Traversal
//     (FromTraversal);
//   - the decide stage's requires_replace form, which names map keys like
//     attributes (KeysAsNames).
//
// The path stays a cty.Path rather than a type of its own: providers,
// state, the plan model and cty's walks already speak it, and a wrapper
// would cost a conversion, and allocations, on the plan walk's hot paths.
//
// The encodings of paths inside a file or wire format (the plan file, the
// state file's sensitive_attributes, the JSON plan, the provider protocol)
// stay with the one reader and writer of that format.
//
// It imports nothing of the project, so every layer, the rules included,
// may use it.
package attrpath
