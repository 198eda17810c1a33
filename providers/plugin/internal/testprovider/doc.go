// Package testprovider is a provider plugin for the tests of
// providers/plugin: one logic, written against cty, served over protocol
// 5 (tf5server) or 6 (tf6server) with terraform-plugin-go, plus switches
// to make it misbehave (crash, wrong-typed answers, hang, exit early,
// speak only protocol 4). cmd/testprovider is its main package, which
// the tests build into a temporary directory.
package testprovider
