package engine_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/engine"
	"github.com/tenetplan/tenet/engine/plan"
)

// relevantAttrs renders a plan's relevant attributes as "addr path" lines.
func relevantAttrs(p *plan.Plan) []string {
	var out []string
	for _, ra := range p.RelevantAttributes {
		var b strings.Builder
		b.WriteString(ra.Resource)
		b.WriteByte(' ')
		for _, step := range ra.Attr {
			switch s := step.(type) {
			case cty.GetAttrStep:
				b.WriteString("." + s.Name)
			case cty.IndexStep:
				if s.Key.Type() == cty.String {
					b.WriteString("[" + s.Key.AsString() + "]")
				} else {
					b.WriteString("[" + s.Key.AsBigFloat().String() + "]")
				}
			}
		}
		out = append(out, b.String())
	}
	return out
}

// The drift note shows only attributes that matter to the plan: those the
// changed resources and outputs read, directly or through locals and
// other resources.
func TestRelevantAttributes(t *testing.T) {
	const base = `
resource "test_thing" "a" {
  name = "a"
  tags = { k = "v" }
}
resource "test_thing" "n" {
  count = 2
  name  = "n${count.index}"
}
resource "test_thing" "reader" {
  name = test_thing.a.name
}
resource "test_thing" "b" {
  name = "b"
}
`
	tests := []struct {
		name        string
		extra       string // replaces test_thing.b
		refreshOnly bool
		want        []string
	}{
		{"unchanged readers are not relevant", `resource "test_thing" "b" { name = "b" }`, false, nil},
		{"direct reference", `resource "test_thing" "b" { name = test_thing.a.id }`, false,
			[]string{"test_thing.a .id"}},
		{"through a local", `
locals { x = "${test_thing.a.name}-x" }
resource "test_thing" "b" { name = local.x }
`, false, []string{"test_thing.a .name"}},
		{"one instance of a counted resource", `resource "test_thing" "b" { name = test_thing.n[1].id }`, false,
			[]string{"test_thing.n[1] .id"}},
		{"every instance when no key is named", `resource "test_thing" "b" { name = join(",", test_thing.n[*].id) }`, false,
			[]string{"test_thing.n[0] ", "test_thing.n[1] "}},
		{"output change with a nested path", `
resource "test_thing" "b" { name = "b" }
output "o" { value = test_thing.a.tags["k"] }
`, false, []string{"test_thing.a .tags[k]"}},
		{"transitively through another resource", `
resource "test_thing" "c" { name = test_thing.a.id }
resource "test_thing" "b" { name = test_thing.c.name }
`, false, []string{"test_thing.a .id", "test_thing.c .name"}},
		{"refresh-only keeps output references", `
resource "test_thing" "b" { name = "b" }
output "o" { value = test_thing.a.name }
`, true, []string{"test_thing.a .name"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, newFake(), base)
			h.mustApply(h.mustPlan(engine.PlanOpts{}))
			cfg := strings.Replace(base, "resource \"test_thing\" \"b\" {\n  name = \"b\"\n}\n", tt.extra, 1)
			h.setConfig(cfg)
			opts := engine.PlanOpts{}
			if tt.refreshOnly {
				opts.Mode = plan.RefreshOnlyMode
			}
			got := relevantAttrs(h.mustPlan(opts))
			if len(tt.want) == 0 && len(got) == 0 {
				return
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("relevant attributes (-want +got):\n%s", diff)
			}
		})
	}
}
