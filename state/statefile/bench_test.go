package statefile

import (
	"fmt"
	"testing"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/state"
	"github.com/tenetplan/tenet/state/statetest"
)

// flatState is what `count = n` of terraform_data leaves after an apply.
func flatState(n int) *File {
	return &File{TerraformVersion: "1.10.0", Serial: 1, Lineage: "l", State: statetest.Flat(n)}
}

func benchmarkParse(b *testing.B, n int) {
	src, err := Marshal(flatState(n))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, err := Parse(src); err != nil {
			b.Fatal(err)
		}
	}
}

func benchmarkMarshal(b *testing.B, n int) {
	f := flatState(n)
	for b.Loop() {
		if _, err := Marshal(f); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParse100k(b *testing.B)   { benchmarkParse(b, 100_000) }
func BenchmarkParse5k(b *testing.B)     { benchmarkParse(b, 5_000) }
func BenchmarkParse10(b *testing.B)     { benchmarkParse(b, 10) }
func BenchmarkMarshal100k(b *testing.B) { benchmarkMarshal(b, 100_000) }
func BenchmarkMarshal5k(b *testing.B)   { benchmarkMarshal(b, 5_000) }
func BenchmarkMarshal10(b *testing.B)   { benchmarkMarshal(b, 10) }

func benchmarkParseStd(b *testing.B, n int) {
	src, err := Marshal(flatState(n))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, err := parseStd(src); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseStd100k(b *testing.B) { benchmarkParseStd(b, 100_000) }
func BenchmarkParseStd5k(b *testing.B)   { benchmarkParseStd(b, 5_000) }
func BenchmarkParseStd10(b *testing.B)   { benchmarkParseStd(b, 10) }

func benchmarkMarshalStd(b *testing.B, n int) {
	f := flatState(n)
	for b.Loop() {
		if _, err := marshalStd(f); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkMarshalStd100k(b *testing.B) { benchmarkMarshalStd(b, 100_000) }
func BenchmarkMarshalStd5k(b *testing.B)   { benchmarkMarshalStd(b, 5_000) }
func BenchmarkMarshalStd10(b *testing.B)   { benchmarkMarshalStd(b, 10) }

// chainState is `chain`: n single-instance resources, each depending on
// the previous one.
func chainState(n int) *File {
	s := state.NewState()
	prov := addrs.AbsProviderConfig{Provider: addrs.NewBuiltInProvider("terraform")}
	for i := range n {
		res := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "terraform_data", Name: fmt.Sprintf("r%d", i)}
		obj := &state.ObjectSrc{
			Status:    state.ObjectReady,
			AttrsJSON: []byte(fmt.Sprintf(`{"id":"aaaaaaaa-0000-0000-0000-%012d","input":{"value":"x","type":"string"},"output":{"value":"x","type":"string"},"triggers_replace":null}`, i)),
		}
		if i > 0 {
			obj.Dependencies = []addrs.ConfigResource{{Resource: addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "terraform_data", Name: fmt.Sprintf("r%d", i-1)}}}
		}
		s.SetResourceInstanceCurrent(res.Absolute(nil).Instance(addrs.NoKey), obj, prov)
	}
	return &File{TerraformVersion: "1.10.0", Serial: 1, Lineage: "l", State: s}
}

func BenchmarkParseChain100k(b *testing.B) {
	src, err := Marshal(chainState(100_000))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := Parse(src); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseStdChain100k(b *testing.B) {
	src, err := Marshal(chainState(100_000))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := parseStd(src); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkMarshalChain100k(b *testing.B) {
	f := chainState(100_000)
	for b.Loop() {
		if _, err := Marshal(f); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkMarshalStdChain100k(b *testing.B) {
	f := chainState(100_000)
	for b.Loop() {
		if _, err := marshalStd(f); err != nil {
			b.Fatal(err)
		}
	}
}
