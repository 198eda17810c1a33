// Package statetest builds states for tests and benchmarks of the
// packages that store and encode them. It owns no behaviour of its own
// and is imported only from _test.go files.
package statetest
