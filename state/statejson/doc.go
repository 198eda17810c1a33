// Package statejson renders a state as the JSON document `show -json`
// prints for a state (format_version "1.0"), which is also the plan's
// "prior_state". Values are decoded with the resource types' schemas when
// the caller supplies them (TypeLookup), so dynamically typed attributes
// appear as plain JSON the way OpenTofu shows them; without a schema the
// stored attribute JSON is shown as is.
//
// The state file format belongs to state/statefile; this package only
// reads the in-memory model.
package statejson
