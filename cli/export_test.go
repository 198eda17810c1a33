package cli

// SyncBuffer gives the external tests (package cli_test), which watch a
// tenet process's output while it runs, the buffer the internal ones use.
type SyncBuffer = syncBuffer
