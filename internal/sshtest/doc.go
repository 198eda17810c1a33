// Package sshtest is an SSH server on the loopback interface for tests of
// the provisioners that connect to other machines (their packages' tests
// and the CLI scripts' sshd command). It accepts one user by
// password or by key, runs each command it is given with /bin/sh on this
// machine (on a pseudo-terminal's terms: stderr joins stdout when one was
// asked for), and plays scp's sink itself for "scp -vt DIR" and
// "scp -rvt DIR", so tests need no ssh or scp installed.
package sshtest
