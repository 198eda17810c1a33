// Package jsontext is the JSON lexer and string writer that tenet's
// hand-written codecs share. Scanner steps over JSON by index and only
// ever says "no", so each reader keeps its own structure and falls back to
// encoding/json for anything it declines; ValueEnd and BalancedEnd find
// where a value ends without validating, for readers that split arrays
// over the cores. AppendString decodes a string and AppendQuote writes
// one (AppendQuoteArray a list of them) exactly as encoding/json does
// (escapes, surrogate pairs, U+FFFD for invalid UTF-8, HTML-safe output);
// NumberEnd scans a number by JSON's grammar.
//
// Its users: the readers of the state file (state/statefile), of state
// attributes (state.UnmarshalAttrs), of the plan document
// (engine/plan/planjson) and of the policy input (policy); the writers of
// the state file, of state attributes, of the local journal
// (state/local), of the state's JSON view (state/statejson) and of the
// plan document.
//
// It imports nothing of the project.
package jsontext
