// Package file is the file provisioner: it copies a local file or
// directory (source), or a string (content), to the destination on the
// host of the `connection` block, over ssh (package sshconn).
package file
