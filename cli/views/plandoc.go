package views

import (
	"bytes"
	"encoding/json"
	"fmt"
	"runtime"
	"unsafe"
)

// planDocument is the part of the JSON plan document (format 1.2) the views
// read. Values stay as decoded JSON (json.Number for numbers). Resource
// changes are pointers, never nil, so the decoder can fill them in place.
type planDocument struct {
	FormatVersion      string                            `json:"format_version"`
	ResourceDrift      []*resourceChangeDoc              `json:"resource_drift"`
	ResourceChanges    []*resourceChangeDoc              `json:"resource_changes"`
	OutputChanges      map[string]changeDoc              `json:"output_changes"`
	RelevantAttributes []relevantAttributeDoc            `json:"relevant_attributes"`
	Errored            bool                              `json:"errored"`
	PlannedValues      *struct{ Outputs map[string]any } `json:"planned_values"`
}

type resourceChangeDoc struct {
	Address         string    `json:"address"`
	PreviousAddress string    `json:"previous_address"`
	ModuleAddress   string    `json:"module_address"`
	Mode            string    `json:"mode"`
	Type            string    `json:"type"`
	Name            string    `json:"name"`
	Index           any       `json:"index"`
	Deposed         string    `json:"deposed"`
	ProviderName    string    `json:"provider_name"`
	Change          changeDoc `json:"change"`
	ActionReason    string    `json:"action_reason"`
}

type changeDoc struct {
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

type relevantAttributeDoc struct {
	Resource  string `json:"resource"`
	Attribute []any  `json:"attribute"`
}

func parsePlanDocument(src []byte) (*planDocument, error) {
	return parsePlanDocumentOn(src, runtime.GOMAXPROCS(0), false)
}

// parsePlanDocumentOn decodes on up to workers goroutines. With borrow,
// the document's strings share src's memory instead of a copy of it (for
// a large plan the copy alone is a noticeable part of rendering): only for
// callers that drop the document before returning and keep no string from
// it.
func parsePlanDocumentOn(src []byte, workers int, borrow bool) (*planDocument, error) {
	var str string
	if borrow {
		str = unsafe.String(unsafe.SliceData(src), len(src))
	} else {
		str = string(src)
	}
	if doc, ok := decodePlanDocument(src, str, workers); ok {
		return doc, nil
	}
	return parsePlanDocumentReflect(src)
}

// parsePlanDocumentReflect is the reference decoding, used for whatever
// decodePlanDocument leaves to it.
func parsePlanDocumentReflect(src []byte) (*planDocument, error) {
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.UseNumber()
	var doc planDocument
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("reading plan document: %w", err)
	}
	for _, list := range [][]*resourceChangeDoc{doc.ResourceDrift, doc.ResourceChanges} {
		for i, rc := range list {
			if rc == nil {
				list[i] = &resourceChangeDoc{}
			}
		}
	}
	return &doc, nil
}

// action is a planned action as the views distinguish them.
type action int

const (
	actNoOp action = iota
	actCreate
	actRead
	actUpdate
	actDeleteThenCreate
	actCreateThenDelete
	actDelete
	actForget
)

func parseActions(actions []string) (action, error) {
	switch len(actions) {
	case 1:
		switch actions[0] {
		case "no-op":
			return actNoOp, nil
		case "create":
			return actCreate, nil
		case "read":
			return actRead, nil
		case "update":
			return actUpdate, nil
		case "delete":
			return actDelete, nil
		case "forget":
			return actForget, nil
		}
	case 2:
		switch {
		case actions[0] == "delete" && actions[1] == "create":
			return actDeleteThenCreate, nil
		case actions[0] == "create" && actions[1] == "delete":
			return actCreateThenDelete, nil
		}
	}
	return actNoOp, fmt.Errorf("unsupported change actions %q", actions)
}

func (a action) isReplace() bool { return a == actDeleteThenCreate || a == actCreateThenDelete }

// uiName is the JSON-UI spelling of the action (§15).
func (a action) uiName() string {
	switch a {
	case actCreate:
		return "create"
	case actRead:
		return "read"
	case actUpdate:
		return "update"
	case actDeleteThenCreate, actCreateThenDelete:
		return "replace"
	case actDelete:
		return "delete"
	case actForget:
		return "remove"
	}
	return "noop"
}

func (rc *resourceChangeDoc) moved() bool {
	return rc.PreviousAddress != "" && rc.PreviousAddress != rc.Address
}

func (rc *resourceChangeDoc) importing() bool { return rc.Change.Importing != nil }
