package planjson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"runtime"
	"unsafe"
)

// Document is the part of the JSON plan document (format 1.2) that
// programs reading a plan (the human and JSON UIs) use. Values stay as decoded JSON (json.Number for numbers). Resource
// changes are pointers, never nil, so the decoder can fill them in place.
type Document struct {
	FormatVersion      string                            `json:"format_version"`
	ResourceDrift      []*ResourceChange                 `json:"resource_drift"`
	ResourceChanges    []*ResourceChange                 `json:"resource_changes"`
	OutputChanges      map[string]Change                 `json:"output_changes"`
	RelevantAttributes []RelevantAttribute               `json:"relevant_attributes"`
	Errored            bool                              `json:"errored"`
	PlannedValues      *struct{ Outputs map[string]any } `json:"planned_values"`
}

// ResourceChange is one element of resource_changes or resource_drift.
type ResourceChange struct {
	Address         string `json:"address"`
	PreviousAddress string `json:"previous_address"`
	ModuleAddress   string `json:"module_address"`
	Mode            string `json:"mode"`
	Type            string `json:"type"`
	Name            string `json:"name"`
	Index           any    `json:"index"`
	Deposed         string `json:"deposed"`
	ProviderName    string `json:"provider_name"`
	Change          Change `json:"change"`
	ActionReason    string `json:"action_reason"`
}

// Change is the change object of a resource or output change.
type Change struct {
	Actions         []string `json:"actions"`
	Before          any      `json:"before"`
	After           any      `json:"after"`
	AfterUnknown    any      `json:"after_unknown"`
	BeforeSensitive any      `json:"before_sensitive"`
	AfterSensitive  any      `json:"after_sensitive"`
	ReplacePaths    [][]any  `json:"replace_paths"`
	Importing       *struct {
		ID string `json:"id"`
	} `json:"importing"`
	GeneratedConfig string `json:"generated_config"`
}

// RelevantAttribute is one element of relevant_attributes.
type RelevantAttribute struct {
	Resource  string `json:"resource"`
	Attribute []any  `json:"attribute"`
}

// Decode reads a JSON plan document (as Marshal or MarshalView write it,
// or as OpenTofu's `show -json` prints it) on all cores.
func Decode(src []byte) (*Document, error) {
	return DecodeWith(src, DecodeOptions{Workers: runtime.GOMAXPROCS(0)})
}

// DecodeOptions tune Decode for callers that know more about the document's
// lifetime or want a set number of goroutines.
type DecodeOptions struct {
	// Workers is how many goroutines may decode long change arrays.
	Workers int
	// Borrow lets the document's strings share src's memory instead of a
	// copy of it (for a large plan the copy alone is a noticeable part of
	// rendering): only for callers that drop the document before returning
	// and keep no string from it.
	Borrow bool
}

// DecodeWith is Decode with options.
func DecodeWith(src []byte, opts DecodeOptions) (*Document, error) {
	var str string
	if opts.Borrow {
		str = unsafe.String(unsafe.SliceData(src), len(src))
	} else {
		str = string(src)
	}
	if doc, ok := decodeFast(str, opts.Workers); ok {
		return doc, nil
	}
	return decodeReflect(src)
}

// decodeReflect is the reference decoding, used for whatever decodeFast
// leaves to it.
func decodeReflect(src []byte) (*Document, error) {
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.UseNumber()
	var doc Document
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("reading plan document: %w", err)
	}
	for _, list := range [][]*ResourceChange{doc.ResourceDrift, doc.ResourceChanges} {
		for i, rc := range list {
			if rc == nil {
				list[i] = &ResourceChange{}
			}
		}
	}
	return &doc, nil
}

// Moved reports whether the change moves the object to a new address.
func (rc *ResourceChange) Moved() bool {
	return rc.PreviousAddress != "" && rc.PreviousAddress != rc.Address
}

// Importing reports whether the change imports an existing object.
func (rc *ResourceChange) Importing() bool { return rc.Change.Importing != nil }
