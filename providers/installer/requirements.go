package installer

import (
	"fmt"
	"path/filepath"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/providers/getproviders"
)

// Add records that some module requires p with the constraint string
// (as written in required_providers; "" for none), intersecting it with
// what other modules require.
func (r Requirements) Add(p addrs.Provider, constraint string) error {
	c, err := getproviders.ParseConstraints(constraint)
	if err != nil {
		return fmt.Errorf("invalid version constraint %q for %s: %w", constraint, p.ForDisplay(), err)
	}
	r[p] = getproviders.MergeConstraints(r[p], c)
	return nil
}

// DataDir is the working directory's data directory: TF_DATA_DIR when
// set (relative to workDir unless absolute), else workDir/.terraform.
func DataDir(workDir string, getenv func(string) string) string {
	d := getenv("TF_DATA_DIR")
	if d == "" {
		d = ".terraform"
	}
	if filepath.IsAbs(d) {
		return d
	}
	return filepath.Join(workDir, d)
}
