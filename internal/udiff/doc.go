// Package udiff writes the unified diff of two texts, line by line, in
// the form `diff -u` prints with labels: the two header lines, then
// hunks of changes with three lines of context, each change's removed
// lines before its added ones, and the "\ No newline at end of file"
// marker. `tenet fmt -diff` prints it, as OpenTofu's fmt prints the
// output of the system's diff command; writing it here needs no
// external program and gives the same text.
//
// The edit script is a shortest one (Myers' algorithm). Where several
// shortest scripts exist, the one chosen may pair lines differently from
// GNU diff's; both are correct diffs.
//
// It imports only the standard library.
package udiff
