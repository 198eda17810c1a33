package statefile

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/state"
)

// EncodeObject encodes one object as a state file instance entry without
// index_key and deposed (those belong to its address). state/local's
// journal stores objects this way.
func EncodeObject(obj *state.ObjectSrc) ([]byte, error) {
	var buf bytes.Buffer
	if err := writeObject(&buf, writeRaw, addrs.NoKey, state.NotDeposed, obj); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// DecodeObject reads what EncodeObject wrote.
func DecodeObject(src []byte) (*state.ObjectSrc, error) {
	var ri instanceV4
	if err := json.Unmarshal(src, &ri); err != nil {
		return nil, fmt.Errorf("invalid object: %w", err)
	}
	return decodeObject(&ri)
}

// EncodeOutput encodes a root output value as the state file does.
func EncodeOutput(name string, o *state.OutputValue) ([]byte, error) {
	s := &state.State{Outputs: map[string]*state.OutputValue{name: o}}
	var buf bytes.Buffer
	if err := writeOutputs(&buf, s, writeRaw); err != nil {
		return nil, err
	}
	// Strip the enclosing {"name": ... }.
	b := buf.Bytes()
	i := bytes.IndexByte(b, ':')
	return b[i+1 : len(b)-1], nil
}

// DecodeOutput reads what EncodeOutput wrote.
func DecodeOutput(src []byte) (*state.OutputValue, error) {
	var o outputV4
	if err := json.Unmarshal(src, &o); err != nil {
		return nil, fmt.Errorf("invalid output: %w", err)
	}
	return decodeOutput(o)
}
