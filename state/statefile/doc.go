// Package statefile reads and writes state snapshots in the version 4 JSON
// format that OpenTofu and Terraform use, so a state file written by tenet
// can be read by those tools and the other way round.
//
// A File is a State plus the metadata that lives only in the file: the
// version of the tool that wrote it, its serial and its lineage. Write emits
// compact JSON in the same key order and sort order as OpenTofu 1.10, so a
// file read and written again is byte-identical when OpenTofu wrote it.
//
// Large states are read and written in parallel: Parse finds where each
// resource instance starts and ends, then decodes the instances in chunks
// on every core with a decoder written for this format; Marshal encodes
// chunks of instances and joins them in order. Anything outside the shape
// the fast reader knows — including every malformed file — goes to the
// encoding/json reader, which is the reference for results and error
// messages. Below a few hundred kilobytes everything stays on one
// goroutine. The hand-written codecs pay several times over (in
// bench_test.go, compare BenchmarkParse100k with BenchmarkParseStd100k,
// BenchmarkMarshal100k with BenchmarkMarshalStd100k) and lex with
// internal/jsontext.
//
// Errors speak the file's terms: the JSON path and what was expected
// there, never Go type names, and at most a short piece of the input
// (limits.go). Numbers whose exponent is too large to write back are
// refused on read.
//
// Storage, locking and serial/lineage policy belong to state/local; the
// `show -json` view of a state belongs to state/statejson.
package statefile
