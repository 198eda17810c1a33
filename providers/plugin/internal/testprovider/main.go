package testprovider

import (
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov5"
	"github.com/hashicorp/terraform-plugin-go/tfprotov5/tf5server"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"
)

// Main runs the test provider as a plugin. Flags:
//
//	-protocol 5|6   which protocol to serve (default: 6, or the
//	                TENET_TEST_PROVIDER_PROTOCOL environment variable,
//	                for tests where tenet launches the plugin)
//	-misbehave M    panic (PlanResourceChange panics), wrongtype (it
//	                returns a string), hang (it and StopProvider never
//	                return), exit (exit before the handshake), proto4
//	                (announce protocol 4 only)
func Main() {
	def := 6
	if os.Getenv("TENET_TEST_PROVIDER_PROTOCOL") == "5" {
		def = 5
	}
	protocol := flag.Int("protocol", def, "plugin protocol to serve")
	misbehave := flag.String("misbehave", "", "how to misbehave")
	flag.Parse()

	switch *misbehave {
	case "exit":
		fmt.Fprintln(os.Stderr, "test provider: refusing to start")
		os.Exit(3)
	case "proto4":
		// A plugin of the pre-gRPC era: its handshake line names
		// protocol 4, whatever the client offered.
		fmt.Println("1|4|unix|/nonexistent/tenet-test.sock|grpc|")
		time.Sleep(time.Minute)
		return
	}
	c := &core{protocol: *protocol, misbehave: *misbehave}
	var err error
	if *protocol == 5 {
		err = tf5server.Serve("registry.opentofu.org/tenet/test", func() tfprotov5.ProviderServer { return newServer5(c) })
	} else {
		err = tf6server.Serve("registry.opentofu.org/tenet/test", func() tfprotov6.ProviderServer { return newServer6(c) })
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// NewServer6 is the well-behaved protocol 6 provider, for serving in the
// test process itself (debug mode, reattach tests).
func NewServer6() tfprotov6.ProviderServer { return newServer6(&core{protocol: 6}) }
