package state

import (
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/addrs"
)

// State is the record of what exists: root outputs and, per module
// instance, the resources and their instance objects. Attribute values are
// kept as the JSON the state file stores (ObjectSrc.AttrsJSON); decoding
// them needs the resource type's schema, which the engine owns.
//
// A State is not safe for concurrent mutation: its owner serialises
// writes (the engine's apply holds its own lock).
type State struct {
	Modules map[string]*Module // keyed by ModuleInstance.String() ("" = root)
	Outputs map[string]*OutputValue
	// CheckResults is carried through unchanged (raw JSON, may be nil).
	CheckResults []byte
}

// OutputValue is a root module output as stored.
type OutputValue struct {
	Value     cty.Value
	Sensitive bool
	// Deprecated is the output's deprecation message, if any ("deprecated"
	// in the state file).
	Deprecated string
}

// Module holds the resources of one module instance.
type Module struct {
	Addr      addrs.ModuleInstance
	Resources map[string]*Resource // keyed by addrs.Resource.String()
}

// Resource holds the instances of one resource in one module instance.
type Resource struct {
	Addr           addrs.AbsResource
	ProviderConfig addrs.AbsProviderConfig
	Instances      map[addrs.InstanceKey]*ResourceInstance
}

// ResourceInstance holds the current object of an instance (if any) and
// the deposed objects left over from create_before_destroy replacements.
type ResourceInstance struct {
	Current *ObjectSrc
	Deposed map[DeposedKey]*ObjectSrc
}

// DeposedKey names a deposed object: 8 lowercase hex digits. NotDeposed
// ("") is the current object.
type DeposedKey string

const NotDeposed DeposedKey = ""

// ObjectStatus is the readiness of an object.
type ObjectStatus byte

const (
	ObjectReady   ObjectStatus = 'R'
	ObjectTainted ObjectStatus = 'T'
)

// ObjectSrc is one remote object as the state file records it.
type ObjectSrc struct {
	SchemaVersion       uint64
	AttrsJSON           []byte // the "attributes" object, verbatim
	Private             []byte
	Status              ObjectStatus
	Dependencies        []addrs.ConfigResource // sorted, transitive
	CreateBeforeDestroy bool
	SensitivePaths      []cty.Path // from "sensitive_attributes"
}
