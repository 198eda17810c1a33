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

// benchParse times parse reading f as Marshal writes it.
func benchParse(b *testing.B, parse func([]byte) (*File, error), f *File) {
	src, err := Marshal(f)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, err := parse(src); err != nil {
			b.Fatal(err)
		}
	}
}

// benchMarshal times marshal writing f.
func benchMarshal(b *testing.B, marshal func(*File) ([]byte, error), f *File) {
	for b.Loop() {
		if _, err := marshal(f); err != nil {
			b.Fatal(err)
		}
	}
}

// The Std benchmarks run the encoding/json reference on the same states.

func BenchmarkParse100k(b *testing.B)      { benchParse(b, Parse, flatState(100_000)) }
func BenchmarkParse5k(b *testing.B)        { benchParse(b, Parse, flatState(5_000)) }
func BenchmarkParse10(b *testing.B)        { benchParse(b, Parse, flatState(10)) }
func BenchmarkMarshal100k(b *testing.B)    { benchMarshal(b, Marshal, flatState(100_000)) }
func BenchmarkMarshal5k(b *testing.B)      { benchMarshal(b, Marshal, flatState(5_000)) }
func BenchmarkMarshal10(b *testing.B)      { benchMarshal(b, Marshal, flatState(10)) }
func BenchmarkParseStd100k(b *testing.B)   { benchParse(b, parseStd, flatState(100_000)) }
func BenchmarkParseStd5k(b *testing.B)     { benchParse(b, parseStd, flatState(5_000)) }
func BenchmarkParseStd10(b *testing.B)     { benchParse(b, parseStd, flatState(10)) }
func BenchmarkMarshalStd100k(b *testing.B) { benchMarshal(b, marshalStd, flatState(100_000)) }
func BenchmarkMarshalStd5k(b *testing.B)   { benchMarshal(b, marshalStd, flatState(5_000)) }
func BenchmarkMarshalStd10(b *testing.B)   { benchMarshal(b, marshalStd, flatState(10)) }

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

func BenchmarkParseChain100k(b *testing.B)      { benchParse(b, Parse, chainState(100_000)) }
func BenchmarkParseStdChain100k(b *testing.B)   { benchParse(b, parseStd, chainState(100_000)) }
func BenchmarkMarshalChain100k(b *testing.B)    { benchMarshal(b, Marshal, chainState(100_000)) }
func BenchmarkMarshalStdChain100k(b *testing.B) { benchMarshal(b, marshalStd, chainState(100_000)) }
