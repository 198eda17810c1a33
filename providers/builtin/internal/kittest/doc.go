// Package kittest drives built-in providers through the resource
// lifecycle in tests, checking every response with the same rules the
// engine applies (package objchange), so a provider test fails exactly
// where the engine would report a provider bug.
package kittest
