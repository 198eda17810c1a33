package graphsolve_test

import (
	"context"
	"fmt"
	"os"

	"github.com/hashicorp/hcl/v2"
	"github.com/tenetplan/tenet/graphsolve"
)

func Example() {
	g := graphsolve.New[string](nil)
	g.AddEdge("aws_instance.web", "aws_subnet.main") // web depends on the subnet
	g.AddEdge("aws_subnet.main", "aws_vpc.main")
	g.AddEdge("aws_dns_record.web", "aws_instance.web")
	g.AddVertex("aws_s3_bucket.logs")

	res := g.Walk(context.Background(), 10, func(_ context.Context, addr string) hcl.Diagnostics {
		if addr == "aws_subnet.main" {
			return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Subnet overlaps"}}
		}
		return nil
	})
	for _, addr := range g.Vertices() {
		fmt.Printf("%s: %s\n", addr, res.Status(addr))
	}
	for _, d := range res.Diagnostics {
		fmt.Println(d.Summary)
	}

	// Output:
	// aws_instance.web: skipped
	// aws_subnet.main: failed
	// aws_vpc.main: done
	// aws_dns_record.web: skipped
	// aws_s3_bucket.logs: done
	// Subnet overlaps
}

func ExampleGraph_Validate() {
	g := graphsolve.New[string](nil)
	g.AddEdge("b", "a")
	g.AddEdge("a", "c")
	g.AddEdge("c", "b")
	g.AddEdge("d", "d")
	for _, err := range g.Validate() {
		fmt.Println(err)
	}
	// Output:
	// Cycle: a, b, c
	// Self reference: d
}

func ExampleGraph_DOT() {
	g := graphsolve.New[string](nil)
	g.AddEdge("web", "db")
	g.DOT(os.Stdout, "")
	// Output:
	// digraph {
	// 	rankdir = "RL";
	// 	node [shape = "rect"];
	// 	"db";
	// 	"web";
	// 	"web" -> "db";
	// }
}
