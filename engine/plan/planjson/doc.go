// Package planjson is the one writer and the one reader of the JSON plan:
// the document `show -json` prints for a plan (format 1.2), plus a
// top-level "tenet" object holding each change's rule provenance and
// decision facts and the policy results.
//
// Marshal writes a plan.Plan with keys in OpenTofu's order, byte for byte
// what OpenTofu prints for the same plan apart from the "tenet" object;
// MarshalView writes only the members the UIs read, and MarshalFiltered
// only those a policy check reads. AppendValue, AppendUnknown and
// AppendSensitive write a cty value as the plan's three JSON trees, for
// callers that print values the same way (`state show -json`).
//
// Decode reads a JSON plan document — tenet's or OpenTofu's — into
// Document, the members the human and JSON UIs draw from, with values as
// decoded JSON. Plans of 100,000 changes are common enough that both
// directions are written by hand (no reflection) and spread long change
// arrays over the cores; the reader hands anything unusual to
// encoding/json, which stays the reference for results and errors.
//
// The plan model belongs to package plan, saved plan files to
// plan/planfile, and the prior state's JSON view to state/statejson.
package planjson
