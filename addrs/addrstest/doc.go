// Package addrstest holds test helpers for packages that build addresses
// from strings in their tests. It owns no behaviour of its own and is
// imported only from _test.go files.
package addrstest
