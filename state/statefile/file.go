package statefile

import (
	"crypto/rand"
	"fmt"

	"github.com/tenetplan/tenet/state"
)

// FormatVersion is the state file format version this package reads and writes.
const FormatVersion = 4

// File is one state snapshot with its file metadata.
type File struct {
	// TerraformVersion is the version of the tool that wrote the file.
	TerraformVersion string
	// Serial increases every time a changed snapshot is persisted.
	Serial uint64
	// Lineage identifies the chain of snapshots the file belongs to; it
	// never changes for a given state.
	Lineage string
	State   *state.State
}

// New returns a file for a new state: fresh lineage, serial 0.
func New(s *state.State, terraformVersion string) *File {
	if s == nil {
		s = state.NewState()
	}
	return &File{TerraformVersion: terraformVersion, Lineage: NewLineage(), State: s}
}

// DeepCopy copies the file and its state.
func (f *File) DeepCopy() *File {
	if f == nil {
		return nil
	}
	c := *f
	c.State = f.State.DeepCopy()
	return &c
}

// NewLineage returns a random version-4 UUID.
func NewLineage() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(fmt.Sprintf("reading random bytes: %s", err))
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
