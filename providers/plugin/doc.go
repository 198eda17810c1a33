// Package plugin runs provider plugins, the executables written for
// Terraform and OpenTofu, behind providers.Interface. It speaks plugin
// protocols 5 and 6 over gRPC.
//
// A Client owns one plugin process. The engine starts one per provider
// configuration with New(Config{Path: exe}), or attaches to a provider
// started in debug mode with New(Config{Reattach: rc}), rc being one
// entry of ParseReattachProviders(os.Getenv("TF_REATTACH_PROVIDERS")).
// Close shuts the process down (a reattached one is left running).
//
// What this package owns:
//   - launch and handshake through go-plugin: the magic cookie, protocol
//     negotiation (5 or 6; a plugin offering only 4 is refused), mutual
//     TLS on the unix socket unless Config.DisableAutoMTLS, 256 MiB
//     messages, a logger that is never nil;
//   - the plugin's environment: tenet's own, with the provider SDKs' logs
//     switched off unless the user set TF_LOG or TF_LOG_PROVIDER (then
//     the logs go to TF_LOG_PATH or stderr). SDK logs are on at TRACE by
//     default and cost several times the call itself;
//   - every RPC of providers.Interface, with values sent as msgpack
//     DynamicValues against the schema's implied type (JSON is accepted
//     back), marks dropped before encoding, and schemas and function
//     signatures converted to providers types;
//   - failures as diagnostics naming the call: a crash (quoting the
//     plugin's panic from its stderr), a value of the wrong type, an
//     unimplemented RPC, a cancelled call. A cancelled call makes the
//     client send StopProvider and kill the plugin if that is not
//     answered within Config.StopTimeout.
//
// What it leaves to others: finding and verifying provider executables
// (the installer and lock file), choosing which configuration gets which
// process, building proposed new states and checking a provider's
// answers against them (the engine, with objchange; the
// LegacyTypeSystem flag tells it when to relax those checks), and
// putting marks back on returned values.
//
// How the protocol is reached: no module the project can use exports the
// generated tfplugin5/tfplugin6 client code, so this package blank-imports
// terraform-plugin-go's tf5server and tf6server, which register the
// protocol descriptors and generated message types, and builds requests
// by reflection over them (protoreflect), calling grpc.ClientConn.Invoke.
// One code path serves both protocols through a table of RPC names
// (rpc.go), checked with every field it touches when the first client
// starts. Compared with generating our own stubs with protoc, this needs
// no toolchain and no copied .proto, and it cannot collide with the
// registration terraform-plugin-go makes, so providers written with it
// can still be served in the same binary (the tests do).
package plugin
