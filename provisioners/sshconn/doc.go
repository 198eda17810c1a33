// Package sshconn is the connection the file and remote-exec
// provisioners make to another machine: a `connection` block of type ssh
// (the default) read with OpenTofu's defaults, authenticated by password,
// private key (optionally with a certificate) or the SSH agent, through a
// bastion host if one is named, with the host key checked when one is
// given. It uploads files and directories with the scp protocol and runs
// commands, as OpenTofu's ssh communicator does, retrying the connection
// until the connection's timeout.
//
// winrm connections, HTTP proxies and target_platform = "windows" are
// refused with an error naming them: tenet does not make them.
package sshconn
