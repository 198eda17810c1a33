// Package jsontext decodes JSON strings exactly as encoding/json does, for
// the hand-written JSON readers of the state file (state, state/statefile),
// the plan views (cli/views) and the policy input (policy). Each reader
// keeps its own structure and fallbacks; what they share is the one part
// where they must all agree with encoding/json byte for byte: escapes,
// surrogate pairs, and the U+FFFD that replaces invalid UTF-8 and unpaired
// surrogates.
//
// It imports nothing of the project.
package jsontext
