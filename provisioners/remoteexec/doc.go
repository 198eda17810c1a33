// Package remoteexec is the remote-exec provisioner: it connects to the
// host of the `connection` block over ssh (package sshconn), uploads each
// script (the inline commands as one script, or the local script files)
// to the connection's script_path, runs it, reports each line it writes
// as output, and then blanks the uploaded file. A script that exits with
// a non-zero status fails the run.
package remoteexec
