// Package time is the built-in provider registry.opentofu.org/hashicorp/time:
// time_static, which records a moment once, and time_sleep, which waits
// on creation and destruction to give other systems time to settle.
package time
