package planfile

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tenetplan/tenet/engine/plan/action"
	"github.com/tenetplan/tenet/engine/plan/plantest"
	"github.com/tenetplan/tenet/internal/provenance"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/state"

	"github.com/tenetplan/tenet/engine/plan"

	"github.com/tenetplan/tenet/engine/plan/planjson"
)

var planCmpOpts = cmp.Options{
	cmp.Comparer(func(a, b cty.Value) bool {
		if a == cty.NilVal || b == cty.NilVal {
			return a == cty.NilVal && b == cty.NilVal
		}
		return a.RawEquals(b)
	}),
	cmp.Comparer(func(a, b cty.Path) bool { return a.Equals(b) }),
	cmpopts.EquateEmpty(),
	// The configuration's lazy source is compared through Configuration.
	cmpopts.IgnoreUnexported(plan.Plan{}),
}

// richPlan uses every field of Plan, with values that stress the encoding:
// unknowns (refined ones too), nested collections, sets, deposed objects,
// moves, imports, sensitive paths through indexes.
func richPlan(t *testing.T) *plan.Plan {
	t.Helper()
	moduleAddr := addrs.RootModuleInstance.Child("net", addrs.StringKey("a \"b\"")).Child("inner", addrs.IntKey(3))
	awsProvider := addrs.AbsProviderConfig{Module: addrs.Module{"net"}, Provider: addrs.NewDefaultProvider("aws"), Alias: "west"}
	objType := cty.Object(map[string]cty.Type{
		"id":   cty.String,
		"tags": cty.Map(cty.String),
		"ports": cty.List(cty.Object(map[string]cty.Type{
			"number": cty.Number, "secret": cty.String,
		})),
		"zones": cty.Set(cty.String),
	})
	before := cty.ObjectVal(map[string]cty.Value{
		"id":   cty.StringVal("i-123"),
		"tags": cty.MapVal(map[string]cty.Value{"Name": cty.StringVal("web"), "<&>": cty.StringVal("\u2028")}),
		"ports": cty.ListVal([]cty.Value{
			cty.ObjectVal(map[string]cty.Value{"number": cty.NumberFloatVal(80.5), "secret": cty.StringVal("s")}),
		}),
		"zones": cty.SetVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")}),
	})
	after := cty.ObjectVal(map[string]cty.Value{
		"id":   cty.UnknownVal(cty.String).RefineNotNull(),
		"tags": cty.UnknownVal(cty.Map(cty.String)),
		"ports": cty.ListVal([]cty.Value{
			cty.ObjectVal(map[string]cty.Value{"number": cty.NumberIntVal(443), "secret": cty.UnknownVal(cty.String)}),
		}),
		"zones": cty.NullVal(cty.Set(cty.String)),
	})
	secretPath := cty.GetAttrPath("ports").IndexInt(0).GetAttr("secret")
	tagPath := cty.GetAttrPath("tags").IndexString("<&>")

	web := &plan.ResourceInstanceChange{
		Addr:                 addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "aws_instance", Name: "web"}.Instance(addrs.StringKey("x")).Absolute(moduleAddr),
		PrevRunAddr:          addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "aws_instance", Name: "old"}.Instance(addrs.NoKey).Absolute(addrs.RootModuleInstance),
		Provider:             awsProvider,
		Action:               action.CreateThenDelete,
		Reason:               plan.ReasonReplaceByTriggers,
		Before:               before,
		After:                after,
		BeforeSensitivePaths: []cty.Path{secretPath, tagPath},
		AfterSensitivePaths:  []cty.Path{secretPath},
		RequiredReplace:      []cty.Path{cty.GetAttrPath("zones")},
		Private:              []byte{0, 1, 2, 255},
		Importing:            &plan.Importing{ID: "i-123"},
		SchemaVersion:        2,
		CreateBeforeDestroy:  true,
	}
	deposed := &plan.ResourceInstanceChange{
		Addr:        web.Addr,
		PrevRunAddr: web.Addr,
		DeposedKey:  "0a1b2c3d",
		Provider:    awsProvider,
		Action:      action.Delete,
		Before:      before,
		After:       cty.NullVal(objType),
	}
	read := plantest.Change(t, "data.terraform_remote_state.x[2]", action.Read, cty.NullVal(cty.DynamicPseudoType), cty.DynamicVal)
	read.Reason = plan.ReasonReadBecauseConfigUnknown

	prior := &state.State{
		Modules: map[string]*state.Module{},
		Outputs: map[string]*state.OutputValue{
			"list": {Value: cty.ListVal([]cty.Value{cty.StringVal("a")})},
			"pw":   {Value: cty.StringVal("hunter2"), Sensitive: true},
		},
		CheckResults: []byte(`[{"object_kind":"resource"}]`),
	}
	plantest.PutObject(prior, web.Addr, awsProvider, state.NotDeposed, &state.ObjectSrc{
		SchemaVersion:       2,
		AttrsJSON:           []byte(`{"id": "i-123",  "n": 1.50}`),
		Private:             []byte("private"),
		Status:              state.ObjectTainted,
		Dependencies:        []addrs.ConfigResource{{Module: addrs.Module{"net"}, Resource: addrs.Resource{Mode: addrs.DataResourceMode, Type: "aws_ami", Name: "a"}}},
		CreateBeforeDestroy: true,
		SensitivePaths:      []cty.Path{cty.GetAttrPath("id")},
	})
	plantest.PutObject(prior, web.Addr, awsProvider, "0a1b2c3d", &state.ObjectSrc{AttrsJSON: []byte(`{"id":"i-old"}`), Status: state.ObjectReady})

	return &plan.Plan{
		Mode:          plan.NormalMode,
		Timestamp:     time.Date(2026, 11, 21, 10, 14, 29, 123, time.UTC),
		Changes:       []*plan.ResourceInstanceChange{read, web, deposed},
		Drift:         []*plan.ResourceInstanceChange{{Addr: web.Addr, PrevRunAddr: web.Addr, Provider: awsProvider, Action: action.Update, Before: before, After: before}},
		OutputChanges: []*plan.OutputChange{{Name: "ip", Action: action.Update, Before: cty.StringVal("1"), After: cty.UnknownVal(cty.String), Sensitive: true}, {Name: "new", Action: action.Create, After: cty.NumberIntVal(1)}},
		Variables: map[string]cty.Value{
			"region": cty.StringVal("eu"),
			"nums":   cty.TupleVal([]cty.Value{cty.NumberIntVal(1), cty.NullVal(cty.Number)}),
		},
		PrevRunState:       &state.State{},
		PriorState:         prior,
		PriorLineage:       "0b7f4c2e-0000-4000-8000-000000000000",
		PriorSerial:        42,
		ConfigDigest:       "sha256:abc",
		TargetAddrs:        []string{"module.net"},
		ExcludeAddrs:       []string{"aws_instance.skip"},
		ForceReplaceAddrs:  []string{`aws_instance.web["x"]`},
		SkipRefresh:        true,
		Errored:            true,
		Configuration:      json.RawMessage(`{"root_module": {}}`),
		RelevantAttributes: []plan.ResourceAttr{{Resource: "aws_instance.web", Attr: cty.GetAttrPath("ports").IndexInt(0)}},
		Provenance: map[string][]provenance.Rule{
			web.ChangeKey(): {{RuleID: "replace.triggers", File: "rules/replace.rego", Line: 12, Title: "replace_triggered_by"}},
		},
		PolicyResults:    json.RawMessage(`{"deny":[]}`),
		TerraformVersion: "0.1.0",
	}
}

func TestPlanFileRoundTrip(t *testing.T) {
	cases := map[string]func(t *testing.T) *plan.Plan{
		"every field": richPlan,
		"empty":       func(*testing.T) *plan.Plan { return &plan.Plan{} },
		"destroy":     func(*testing.T) *plan.Plan { return &plan.Plan{Mode: plan.DestroyMode, Timestamp: time.Unix(5, 0)} },
	}
	for _, rp := range plantest.RecordedPlans {
		cases["recorded "+rp.Name] = func(t *testing.T) *plan.Plan {
			p, _ := plantest.RecordedPlan(t, rp.Name, rp.Build)
			return p
		}
	}
	for name, build := range cases {
		t.Run(name, func(t *testing.T) {
			want := build(t)
			path := filepath.Join(t.TempDir(), "plan.tfplan")
			if err := WriteFile(path, want); err != nil {
				t.Fatal(err)
			}
			got, err := ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got, planCmpOpts); diff != "" {
				t.Fatalf("plan changed in the round trip (-want +got):\n%s", diff)
			}
			// What show -json prints must not change either.
			wantJSON, err := planjson.Marshal(want, nil)
			if err != nil {
				t.Fatal(err)
			}
			gotJSON, err := planjson.Marshal(got, nil)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(wantJSON), string(gotJSON)); diff != "" {
				t.Errorf("JSON of the read plan differs (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPlanFileKeepsNilApartFromEmpty(t *testing.T) {
	p := &plan.Plan{
		Changes:      []*plan.ResourceInstanceChange{plantest.Change(t, "terraform_data.a", action.Create, cty.NullVal(plantest.TDType), cty.NullVal(plantest.TDType))},
		PriorState:   &state.State{Modules: map[string]*state.Module{}},
		PrevRunState: &state.State{Outputs: map[string]*state.OutputValue{}},
	}
	p.Changes[0].Private = []byte{}
	data, err := Encode(p)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	checks := []struct {
		what       string
		isNil, was bool
	}{
		{"change private", got.Changes[0].Private == nil, false},
		{"prior modules", got.PriorState.Modules == nil, false},
		{"prior outputs", got.PriorState.Outputs == nil, true},
		{"prev-run modules", got.PrevRunState.Modules == nil, true},
		{"prev-run outputs", got.PrevRunState.Outputs == nil, false},
		{"configuration", got.Configuration == nil, true},
	}
	for _, c := range checks {
		if c.isNil != c.was {
			t.Errorf("%s: nil = %v after the round trip, want %v", c.what, c.isNil, c.was)
		}
	}
}

func TestReadFileRejectsOtherFiles(t *testing.T) {
	good, err := Encode(richPlan(t))
	if err != nil {
		t.Fatal(err)
	}
	zipOf := func(entries map[string]string) []byte {
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		for name, body := range entries {
			w, _ := zw.Create(name)
			w.Write([]byte(body))
		}
		zw.Close()
		return buf.Bytes()
	}
	corrupt := bytes.Clone(good)
	// Flip bytes in the middle of the compressed metadata; the CRC or the
	// inflater must notice.
	for i := 40; i < 60; i++ {
		corrupt[i] ^= 0xff
	}
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"empty file", nil, "not a tenet plan file"},
		{"text file", []byte("resource \"a\" \"b\" {}\n"), "not a tenet plan file"},
		{"truncated", good[:len(good)/2], "not a tenet plan file"},
		{"corrupted", corrupt, ""},
		{"OpenTofu plan", zipOf(map[string]string{"tfplan": "x", "tfstate": "{}"}), "no tenet-plan.json"},
		{"other format", zipOf(map[string]string{metaEntryName: `{"format":"something","version":1}`}), `format "something"`},
		{"newer version", zipOf(map[string]string{metaEntryName: `{"format":"tenet-plan","version":99}`}), "version 99 is not supported"},
		{"no values", zipOf(map[string]string{metaEntryName: `{"format":"tenet-plan","version":1,"mode":"normal"}`}), "no values.bin"},
		{"dangling value", zipOf(map[string]string{
			metaEntryName: `{"format":"tenet-plan","version":1,"mode":"normal","configuration":-1,"policy_results":-1,"output_changes":[{"name":"o","action":"Create","before":7,"after":-1}]}`,
			valuesEntry:   "",
		}), "missing value 7"},
		{"bad action", zipOf(map[string]string{
			metaEntryName: `{"format":"tenet-plan","version":1,"mode":"normal","configuration":-1,"policy_results":-1,"output_changes":[{"name":"o","action":"Explode","before":-1,"after":-1}]}`,
			valuesEntry:   "",
		}), `unknown action "Explode"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "plan")
			if err := os.WriteFile(path, tc.data, 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := ReadFile(path)
			if err == nil {
				t.Fatal("read succeeded, want an error")
			}
			if !errors.Is(err, ErrInvalidPlanFile) {
				t.Errorf("error %q does not wrap ErrInvalidPlanFile", err)
			}
			if !strings.HasPrefix(err.Error(), path+" is not a valid plan file: ") {
				t.Errorf("error %q does not start with %q", err, path+" is not a valid plan file: ")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not mention %q", err, tc.want)
			}
		})
	}
}

func TestReadFileMissing(t *testing.T) {
	_, err := ReadFile(filepath.Join(t.TempDir(), "nope"))
	if err == nil || !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("err = %v, want a not-exist error", err)
	}
}

func TestEncodeRefusesMarkedValues(t *testing.T) {
	p := &plan.Plan{Variables: map[string]cty.Value{"pw": cty.StringVal("x").Mark("sensitive")}}
	if _, err := Encode(p); err == nil {
		t.Fatal("encoded a marked value; sensitivity would be lost silently")
	}
}

func FuzzReadFile(f *testing.F) {
	for _, build := range []func(*testing.T) *plan.Plan{richPlan, func(*testing.T) *plan.Plan { return &plan.Plan{} }} {
		data, err := Encode(build(&testing.T{}))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte{})
	f.Add([]byte("PK\x03\x04"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Decode(data)
		if err != nil {
			if !errors.Is(err, ErrInvalidPlanFile) {
				t.Fatalf("error %q does not wrap ErrInvalidPlanFile", err)
			}
			return
		}
		// Whatever was accepted must be usable: shown as JSON and saved again.
		planjson.Marshal(p, nil)
		p.Summary()
		p.CanApply()
		again, err := Encode(p)
		if err != nil {
			t.Fatalf("re-encoding an accepted plan: %s", err)
		}
		if _, err := Decode(again); err != nil {
			t.Fatalf("decoding a re-encoded plan: %s", err)
		}
	})
}

func BenchmarkPlanFileRoundTrip100k(b *testing.B) {
	p := plantest.BigPlan(100_000)
	b.ResetTimer()
	for b.Loop() {
		data, err := Encode(p)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Decode(data); err != nil {
			b.Fatal(err)
		}
	}
}

// TestParseAction reads back every action's name as the file stores it.
func TestParseAction(t *testing.T) {
	for _, a := range []action.Action{action.NoOp, action.Create, action.Read, action.Update, action.DeleteThenCreate, action.CreateThenDelete, action.Delete, action.Forget} {
		if parsed, err := parseAction(a.String()); err != nil || parsed != a {
			t.Errorf("parseAction(%q) = %v, %v", a.String(), parsed, err)
		}
	}
	if _, err := parseAction("?"); err == nil {
		t.Error("an undeclared action is read")
	}
}
