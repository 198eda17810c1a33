// Package local is the built-in provider registry.opentofu.org/hashicorp/local,
// standing for hashicorp/local v2.5.3: the local_file and
// local_sensitive_file resources, which write files on the machine running
// tenet, and the data sources of the same names, which read one. Relative
// filenames resolve against the working directory given to
// ConfigureProvider. As in hashicorp/local, file_permission and
// directory_permission (default "0777", "0700" for the sensitive type) are
// asked of the operating system and the process umask still applies.
//
// The provider function direxists reports whether a directory exists.
//
// Import of the file resources is refused with the diagnostic hashicorp/local
// gives (it does not implement import).
package local
