// Package backendtest is the behaviour every state backend must show,
// written once and run by each backend's tests against its real server:
// round trips, serial and lineage, workspaces, lock exclusion between two
// independently configured backends, corrupt stored state, and failed
// writes that leave the stored state alone.
package backendtest
