package cli

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/state"
	"github.com/tenetplan/tenet/state/local"
	"github.com/tenetplan/tenet/state/statefile"
)

// The advice of "Failed to save state" must work: errored.tfstate carries
// the state's lineage and the next serial, and the command it names puts
// it in place (issue #16).
func TestErroredStateAdviceWorks(t *testing.T) {
	t.Chdir(t.TempDir())
	prov := addrs.AbsProviderConfig{Provider: addrs.NewBuiltInProvider("terraform")}
	addr, _ := addrs.ParseAbsResourceInstanceStr("terraform_data.a")
	before := state.NewState()
	before.SetResourceInstanceCurrent(addr, &state.ObjectSrc{AttrsJSON: []byte(`{"id":"1"}`), Status: state.ObjectReady}, prov)
	mgr := local.Open(defaultStatePath, local.Options{})
	if err := mgr.Write(before); err != nil {
		t.Fatal(err)
	}
	final := before.DeepCopy()
	addrB, _ := addrs.ParseAbsResourceInstanceStr("terraform_data.b")
	final.SetResourceInstanceCurrent(addrB, &state.ObjectSrc{AttrsJSON: []byte(`{"id":"2"}`), Status: state.ObjectReady}, prov)

	diags := persistFailed(mgr, final, errors.New("disk full"))
	if len(diags) != 1 || !strings.Contains(diags[0].Detail, `"tenet state push errored.tfstate"`) {
		t.Fatalf("diagnostics %v do not give the push advice", diags)
	}
	var stdout, stderr bytes.Buffer
	if code := Main([]string{"state", "push", "errored.tfstate"}, strings.NewReader(""), &stdout, &stderr, nil); code != 0 {
		t.Fatalf("the advised command failed (%d): %s", code, stderr.String())
	}
	src, err := os.ReadFile(defaultStatePath)
	if err != nil {
		t.Fatal(err)
	}
	got, err := statefile.Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	lineage, serial, _ := mgr.Lineage()
	if diff := cmp.Diff([]any{lineage, serial + 1, true}, []any{got.Lineage, got.Serial, got.State.Equal(final)}); diff != "" {
		t.Errorf("pushed state: lineage, serial, content (-want +got):\n%s", diff)
	}
}
