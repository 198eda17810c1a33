package human

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tenetplan/tenet/providers"
	"github.com/zclconf/go-cty/cty"
	"golang.org/x/tools/txtar"
)

// testSchemas describes the built-in resource types the scenarios use.
type testSchemas map[string]*providers.Block

func (s testSchemas) ResourceSchema(providerName, mode, typ string) *providers.Block {
	return s[mode+"."+typ]
}

var builtinSchemas = testSchemas{
	"managed.terraform_data": {Attributes: map[string]*providers.Attribute{
		"id":               {Type: cty.String, Computed: true},
		"input":            {Type: cty.DynamicPseudoType, Optional: true},
		"output":           {Type: cty.DynamicPseudoType, Computed: true},
		"triggers_replace": {Type: cty.DynamicPseudoType, Optional: true},
	}},
	"data.terraform_remote_state": {Attributes: map[string]*providers.Attribute{
		"backend":   {Type: cty.String, Required: true},
		"config":    {Type: cty.DynamicPseudoType, Optional: true},
		"defaults":  {Type: cty.DynamicPseudoType, Optional: true},
		"outputs":   {Type: cty.DynamicPseudoType, Computed: true},
		"workspace": {Type: cty.String, Optional: true},
	}},
	"managed.time_static": {Attributes: map[string]*providers.Attribute{
		"id":       {Type: cty.String, Computed: true},
		"day":      {Type: cty.Number, Computed: true},
		"hour":     {Type: cty.Number, Computed: true},
		"minute":   {Type: cty.Number, Computed: true},
		"month":    {Type: cty.Number, Computed: true},
		"rfc3339":  {Type: cty.String, Optional: true, Computed: true},
		"second":   {Type: cty.Number, Computed: true},
		"triggers": {Type: cty.Map(cty.String), Optional: true},
		"unix":     {Type: cty.Number, Computed: true},
		"year":     {Type: cty.Number, Computed: true},
	}},
	"managed.example_thing": {
		Attributes: map[string]*providers.Attribute{
			"id":       {Type: cty.String, Computed: true},
			"name":     {Type: cty.String, Required: true},
			"password": {Type: cty.String, Optional: true, Sensitive: true},
			"tags":     {Type: cty.Map(cty.String), Optional: true},
			"ports":    {Type: cty.List(cty.Number), Optional: true},
			"zones":    {Type: cty.Set(cty.String), Optional: true},
			"script":   {Type: cty.String, Optional: true},
			"settings": {Type: cty.Object(map[string]cty.Type{"a": cty.Number, "b": cty.String}), Optional: true},
		},
		BlockTypes: map[string]*providers.NestedBlock{
			"rule": {Nesting: providers.NestingList, Block: providers.Block{Attributes: map[string]*providers.Attribute{
				"from": {Type: cty.Number, Required: true},
				"to":   {Type: cty.Number, Required: true},
			}}},
			"timeouts": {Nesting: providers.NestingSingle, Block: providers.Block{Attributes: map[string]*providers.Attribute{
				"create": {Type: cty.String, Optional: true},
			}}},
		},
	},
}

// TestRenderPlanGolden renders each testdata/*.txtar plan.json and compares
// with want.txt. The archive comment holds options, one per line:
// "mode=<mode>", "color", "schemas=none", "show-sensitive". UPDATE=1
// rewrites want.txt.
func TestRenderPlanGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/plan-*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no golden files")
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			opts := RenderOptions{}
			var schemas SchemaLookup = builtinSchemas
			for _, line := range strings.Split(string(ar.Comment), "\n") {
				switch {
				case strings.HasPrefix(line, "mode="):
					opts.Mode = strings.TrimPrefix(line, "mode=")
				case line == "color":
					opts.Color = true
				case line == "schemas=none":
					schemas = nil
				case line == "show-sensitive":
					opts.ShowSensitive = true
				}
			}
			var planJSON []byte
			wantIdx := -1
			for i, f := range ar.Files {
				switch f.Name {
				case "plan.json":
					planJSON = f.Data
				case "want.txt":
					wantIdx = i
				}
			}
			var buf bytes.Buffer
			if err := RenderPlan(&buf, planJSON, schemas, opts); err != nil {
				t.Fatal(err)
			}
			got := buf.String()
			// A txtar section ends with a line break; a coloured plan ends
			// with the reset that starts the next line, which has none.
			if !strings.HasSuffix(got, "\n") {
				got += "\n"
			}
			if os.Getenv("UPDATE") != "" {
				if wantIdx < 0 {
					ar.Files = append(ar.Files, txtar.File{Name: "want.txt"})
					wantIdx = len(ar.Files) - 1
				}
				ar.Files[wantIdx].Data = []byte(got)
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if wantIdx < 0 {
				t.Fatal("no want.txt section; run with UPDATE=1")
			}
			if diff := cmp.Diff(string(ar.Files[wantIdx].Data), got); diff != "" {
				t.Errorf("rendering differs (-want +got):\n%s", diff)
			}
		})
	}
}
