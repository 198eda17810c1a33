package state

import (
	"testing"

	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// BenchmarkAttrCodecs times the hand-written attribute codecs against
// go-cty's on a terraform_data-shaped object, the shape the 100k-instance
// plans read and write for every instance: the reason the hand-written
// ones exist.
func BenchmarkAttrCodecs(b *testing.B) {
	ty := objjsonTypes[0]
	src := []byte(`{"id":"a1","input":{"value":"x-1","type":"string"},"output":{"value":"x-1","type":"string"},"n":3,"b":true,"l":["a","b"],"m":{"k":"v"}}`)
	v, err := ctyjson.Unmarshal(src, ty)
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name string
		run  func() error
	}{
		{"Unmarshal", func() error { _, err := UnmarshalAttrs(src, ty); return err }},
		{"UnmarshalCty", func() error { _, err := ctyjson.Unmarshal(src, ty); return err }},
		{"Marshal", func() error { _, err := MarshalAttrs(v, ty); return err }},
		{"MarshalCty", func() error { _, err := ctyjson.Marshal(v, ty); return err }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				if err := bc.run(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
