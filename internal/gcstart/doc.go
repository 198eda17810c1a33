// Package gcstart turns the garbage collector off before the linked
// packages' init functions run, for the tenet binary only (main imports it
// for this side effect).
//
// The inits of tenet's dependencies (protobuf descriptors of the plugin
// protocol, the AWS SDK's endpoint tables, OPA's built-ins) allocate more
// than the runtime's initial 4 MB heap goal, so without this a collection
// runs before main starts, scanning the binary's large data segments:
// milliseconds of CPU on every command, for a heap that is almost all live
// (docs/performance.md). cli.Main then applies the run's collector policy
// (off under a soft memory limit until the live heap grows large); this
// only moves the start of that policy earlier, with the same limit. GOGC
// or GOMEMLIMIT in the environment leave the runtime alone, as cli does.
//
// Go initializes packages in the order of their import paths among those
// whose imports are initialized, so this package, which imports only the
// standard library, runs before every google.golang.org and golang.org/x
// package and most of the others.
package gcstart
