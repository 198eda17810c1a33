// Package builtin lists the providers compiled into tenet. Each lives in
// its own subpackage and is started through Registry; nothing registers
// itself at init time.
package builtin
