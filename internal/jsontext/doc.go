// Package jsontext is the JSON lexer and string writer that tenet's
// hand-written codecs share (the state file, state attributes, state
// JSON, the local journal; the plan and policy readers use its string
// and number pieces). Scanner steps over JSON by index and only ever says
// "no", so each reader keeps its own structure and falls back to
// encoding/json for anything it declines; AppendString decodes a string
// and AppendQuote writes one (AppendQuoteArray a list of them) exactly as
// encoding/json does (escapes, surrogate pairs, U+FFFD for invalid UTF-8,
// HTML-safe output); NumberEnd scans a number by JSON's grammar.
//
// It imports nothing of the project.
package jsontext
