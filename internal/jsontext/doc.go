// Package jsontext holds the lexical pieces of JSON that the hand-written
// readers of the state file (state, state/statefile), the plan views
// (cli/views) and the policy input (policy) share: decoding a string
// exactly as encoding/json does (escapes, surrogate pairs, and the U+FFFD
// that replaces invalid UTF-8 and unpaired surrogates) and scanning a
// number by JSON's grammar. Each reader keeps its own structure and
// fallbacks.
//
// It imports nothing of the project.
package jsontext
