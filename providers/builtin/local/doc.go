// Package local is the built-in provider registry.opentofu.org/hashicorp/local:
// local_file and local_sensitive_file write files on the machine running
// tenet, and the local_file data source reads one. Relative filenames
// resolve against the working directory given to ConfigureProvider.
package local
