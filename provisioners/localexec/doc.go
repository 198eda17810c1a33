// Package localexec is the local-exec provisioner: it runs a command on
// the machine tenet runs on, through /bin/sh -c (cmd /C on Windows) or the
// configured interpreter, in the configured working directory, with the
// configured environment added to tenet's own, and reports each line the
// command writes to stdout or stderr as output. A command that exits with
// a non-zero status, cannot start, or is stopped (its context cancelled,
// as an interrupt does) fails the run with the command's last output.
package localexec
