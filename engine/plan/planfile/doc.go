// Package planfile reads and writes saved plan files (`plan -out=FILE`):
// a zip archive of JSON metadata and msgpack-encoded cty values, which
// keep unknown values, so that `apply FILE` applies exactly what was
// planned and `show FILE` shows it.
//
// Files are replaced only once completely written; reading refuses any
// file that is not a tenet plan of this version (OpenTofu's plan files
// included) with an error wrapping ErrInvalidPlanFile, and bounds what an
// entry may inflate to.
//
// The plan model belongs to package plan; the JSON plan to plan/planjson.
package planfile
