package attrpath

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// pathEqual compares paths as cty does (keys by value); go-cmp cannot
// look inside a cty.Value.
var pathEqual = cmp.Comparer(func(a, b cty.Path) bool { return len(a) == len(b) && a.Equals(b) })

func attr(n string) cty.PathStep      { return cty.GetAttrStep{Name: n} }
func key(k string) cty.PathStep       { return cty.IndexStep{Key: cty.StringVal(k)} }
func index(i int64) cty.PathStep      { return cty.IndexStep{Key: cty.NumberIntVal(i)} }
func path(s ...cty.PathStep) cty.Path { return cty.Path(s) }

// forms are paths every form can hold, with each of their other forms.
var forms = []struct {
	name  string
	path  cty.Path
	steps []any
	str   string
	id    string
}{
	{"empty", path(), []any{}, "", ""},
	{"attribute", path(attr("tags")), []any{"tags"}, "tags", ".tags"},
	{"map key", path(attr("tags"), key("Name")), []any{"tags", MapKey("Name")}, `tags["Name"]`, `.tags["Name"]`},
	{"nested attribute", path(attr("a"), attr("b")), []any{"a", "b"}, "a.b", ".a.b"},
	{"index", path(attr("list"), index(0), attr("x")), []any{"list", 0, "x"}, "list[0].x", ".list[0].x"},
	{"dotted key", path(attr("tags"), key("a.b")), []any{"tags", MapKey("a.b")}, `tags["a.b"]`, `.tags["a.b"]`},
	{"dotted attribute", path(attr("tags"), attr("a.b")), []any{"tags", "a.b"}, `tags["a.b"]`, `.tags."a.b"`},
	{"empty key", path(attr("m"), key("")), []any{"m", MapKey("")}, `m[""]`, `.m[""]`},
	{"empty attribute", path(attr("m"), attr("")), []any{"m", ""}, `m[""]`, `.m.""`},
	{"quoted key", path(attr("m"), key(`say "hi"`)), []any{"m", MapKey(`say "hi"`)}, `m["say \"hi\""]`, `.m["say \"hi\""]`},
	{"key first", path(key("k")), []any{MapKey("k")}, `["k"]`, `["k"]`},
	{"index first", path(index(3)), []any{3}, "[3]", "[3]"},
	{"dashed attribute", path(attr("a"), attr("b-c")), []any{"a", "b-c"}, "a.b-c", ".a.b-c"},
}

func TestSteps(t *testing.T) {
	for _, tt := range forms {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.steps, Steps(tt.path)); diff != "" {
				t.Errorf("Steps (-want +got):\n%s", diff)
			}
			back, err := FromSteps(tt.steps)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.path, back, pathEqual); diff != "" {
				t.Errorf("FromSteps (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.steps, Steps(back)); diff != "" {
				t.Errorf("Steps(FromSteps) (-want +got):\n%s", diff)
			}
		})
	}
}

func TestString(t *testing.T) {
	for _, tt := range forms {
		t.Run(tt.name, func(t *testing.T) {
			if got := String(tt.path); got != tt.str {
				t.Errorf("String = %s, want %s", got, tt.str)
			}
		})
	}
}

func TestID(t *testing.T) {
	for _, tt := range forms {
		t.Run(tt.name, func(t *testing.T) {
			if got := ID(tt.path); got != tt.id {
				t.Errorf("ID = %s, want %s", got, tt.id)
			}
		})
	}
	t.Run("distinct", func(t *testing.T) {
		seen := map[string]string{}
		for _, tt := range forms {
			id := ID(tt.path)
			if other, ok := seen[id]; ok {
				t.Errorf("%s and %s share ID %s", tt.name, other, id)
			}
			seen[id] = tt.name
		}
	})
}

// TestUnaddressable covers the keys the step list cannot hold.
func TestUnaddressable(t *testing.T) {
	set := cty.SetVal([]cty.Value{cty.StringVal("x")})
	tests := []struct {
		name  string
		path  cty.Path
		steps []any
		names cty.Path
		str   string
		id    string
	}{
		{
			name:  "unknown key",
			path:  path(attr("m"), cty.IndexStep{Key: cty.UnknownVal(cty.String)}, attr("x")),
			steps: []any{"m", "x"},
			names: path(attr("m"), attr("x")),
			str:   "m[?].x",
			id:    ".m[cty.UnknownVal(cty.String)].x",
		},
		{
			name:  "null key",
			path:  path(attr("m"), cty.IndexStep{Key: cty.NullVal(cty.Number)}),
			steps: []any{"m"},
			names: path(attr("m")),
			str:   "m[?]",
			id:    ".m[cty.NullVal(cty.Number)]",
		},
		{
			name:  "set element",
			path:  path(attr("s"), cty.IndexStep{Key: set}),
			steps: []any{"s"},
			names: path(attr("s")),
			str:   "s[...]",
			id:    `.s[cty.SetVal([]cty.Value{cty.StringVal("x")})]`,
		},
		{
			name:  "fraction",
			path:  path(attr("l"), cty.IndexStep{Key: cty.NumberFloatVal(1.5)}),
			steps: []any{"l", 1},
			names: path(attr("l"), cty.IndexStep{Key: cty.NumberFloatVal(1.5)}),
			str:   "l[1.5]",
			id:    ".l[1.5]",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.steps, Steps(tt.path)); diff != "" {
				t.Errorf("Steps (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.names, KeysAsNames(tt.path), pathEqual); diff != "" {
				t.Errorf("KeysAsNames (-want +got):\n%s", diff)
			}
			if got := String(tt.path); got != tt.str {
				t.Errorf("String = %s, want %s", got, tt.str)
			}
			if got := ID(tt.path); got != tt.id {
				t.Errorf("ID = %s, want %s", got, tt.id)
			}
		})
	}
}

func TestKeysAsNames(t *testing.T) {
	tests := []struct {
		name string
		in   cty.Path
		want cty.Path
		str  string
	}{
		{"names only", path(attr("a"), attr("b")), path(attr("a"), attr("b")), "a.b"},
		{"index", path(attr("a"), index(2)), path(attr("a"), index(2)), "a[2]"},
		{"key", path(attr("tags"), key("Name")), path(attr("tags"), attr("Name")), "tags.Name"},
		{"odd key", path(attr("tags"), key("a.b")), path(attr("tags"), attr("a.b")), `tags["a.b"]`},
		{"empty key", path(attr("tags"), key("")), path(attr("tags"), attr("")), `tags[""]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := KeysAsNames(tt.in)
			if diff := cmp.Diff(tt.want, got, pathEqual); diff != "" {
				t.Errorf("KeysAsNames (-want +got):\n%s", diff)
			}
			if s := String(got); s != tt.str {
				t.Errorf("String = %s, want %s", s, tt.str)
			}
		})
	}
	t.Run("unchanged path is not copied", func(t *testing.T) {
		p := path(attr("a"), index(1))
		if got := KeysAsNames(p); &got[0] != &p[0] {
			t.Error("KeysAsNames copied a path it did not change")
		}
	})
}

func TestFromStepsErrors(t *testing.T) {
	tests := []struct {
		name  string
		steps []any
	}{
		{"float", []any{"a", 1.5}},
		{"int64", []any{int64(1)}},
		{"nil", []any{nil}},
		{"bool", []any{"a", true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if p, err := FromSteps(tt.steps); err == nil {
				t.Errorf("FromSteps(%v) = %#v, want an error", tt.steps, p)
			}
		})
	}
}

func TestFromTraversal(t *testing.T) {
	tests := []struct {
		src  string
		want cty.Path
		all  bool // every step taken
	}{
		{"tags", path(attr("tags")), true},
		{`tags["Name"]`, path(attr("tags"), key("Name")), true},
		{`tags["a.b"]`, path(attr("tags"), key("a.b")), true},
		{`tags[""]`, path(attr("tags"), key("")), true},
		{"list[0].x", path(attr("list"), index(0), attr("x")), true},
		{"a.b.c", path(attr("a"), attr("b"), attr("c")), true},
		{"a[*].b", path(attr("a")), false},
		{"a[null].b", path(attr("a")), false},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			tr, diags := hclsyntax.ParseTraversalAbs([]byte(tt.src), "", hcl.InitialPos)
			if diags.HasErrors() {
				// a[*] and a[null] are no static traversal: build them.
				tr = splatOrNull(tt.src)
			}
			got, n := FromTraversal(tr)
			if diff := cmp.Diff(tt.want, got, pathEqual); diff != "" {
				t.Errorf("FromTraversal (-want +got):\n%s", diff)
			}
			if (n == len(tr)) != tt.all {
				t.Errorf("took %d of %d steps", n, len(tr))
			}
			if tt.all && String(got) != tt.src {
				t.Errorf("String = %s, want it as written, %s", String(got), tt.src)
			}
		})
	}
}

func splatOrNull(src string) hcl.Traversal {
	var mid hcl.Traverser = hcl.TraverseSplat{}
	if src == "a[null].b" {
		mid = hcl.TraverseIndex{Key: cty.NullVal(cty.String)}
	}
	return hcl.Traversal{hcl.TraverseRoot{Name: "a"}, mid, hcl.TraverseAttr{Name: "b"}}
}

// FuzzSteps checks that any step list FromSteps accepts round-trips, and
// that String and ID never panic and ID tells names from keys.
func FuzzSteps(f *testing.F) {
	f.Add("tags", "Name", 0, uint8(0))
	f.Add("a.b", "", -1, uint8(7))
	f.Add("", `"`, 1<<40, uint8(3))
	f.Fuzz(func(t *testing.T, name, k string, i int, shape uint8) {
		// A key is a cty string, which is NFC-normalised.
		nfc := MapKey(cty.StringVal(k).AsString())
		var steps, want []any
		for bit := range 6 {
			switch (shape >> bit) & 3 {
			case 0:
				steps, want = append(steps, name), append(want, name)
			case 1:
				steps, want = append(steps, MapKey(k)), append(want, nfc)
			case 2:
				steps, want = append(steps, i), append(want, i)
			}
		}
		p, err := FromSteps(steps)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(append([]any{}, want...), Steps(p)); diff != "" {
			t.Errorf("Steps(FromSteps) (-want +got):\n%s", diff)
		}
		_ = String(p)
		asKey := path(key(name))
		if ID(path(attr(name))) == ID(asKey) {
			t.Errorf("attribute %q and key %q share an ID", name, name)
		}
		if n := cty.StringVal(name).AsString(); n != string(nfc) && ID(path(key(name))) == ID(path(key(k))) {
			t.Errorf("keys %q and %q share an ID", name, k)
		}
	})
}
