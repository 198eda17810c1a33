package planfile

import (
	"encoding/binary"
	"encoding/json"
	"fmt"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
	ctymsgpack "github.com/zclconf/go-cty/cty/msgpack"
)

// values.bin is a sequence of records, each
//
//	uvarint kind   0 = opaque bytes, n > 0 = cty value of type table entry n-1
//	uvarint length
//	length bytes   the bytes, or the value as msgpack of its type
//
// and the metadata refers to records by position. noRecord (-1) stands for
// an absent value (cty.NilVal) or absent bytes (nil).
const noRecord = -1

// valueStore collects records while encoding.
type valueStore struct {
	buf     []byte
	n       int
	types   []json.RawMessage
	typeIdx map[string]int
	recent  []typeSlot // small cache to skip marshalling types seen just before
}

type typeSlot struct {
	ty  cty.Type
	idx int
}

const recentTypes = 8

func newValueStore() *valueStore {
	return &valueStore{typeIdx: map[string]int{}}
}

// value stores v and returns its record number.
func (s *valueStore) value(v cty.Value) (int, error) {
	if v == cty.NilVal {
		return noRecord, nil
	}
	ty := v.Type()
	ti, err := s.typeIndex(ty)
	if err != nil {
		return 0, err
	}
	// Marked values are refused here: plans keep sensitivity as paths.
	raw, err := ctymsgpack.Marshal(v, ty)
	if err != nil {
		return 0, err
	}
	return s.record(uint64(ti)+1, raw), nil
}

// bytes stores raw and returns its record number (noRecord for nil).
func (s *valueStore) bytes(raw []byte) int {
	if raw == nil {
		return noRecord
	}
	return s.record(0, raw)
}

func (s *valueStore) record(kind uint64, data []byte) int {
	s.buf = binary.AppendUvarint(s.buf, kind)
	s.buf = binary.AppendUvarint(s.buf, uint64(len(data)))
	s.buf = append(s.buf, data...)
	s.n++
	return s.n - 1
}

func (s *valueStore) typeIndex(ty cty.Type) (int, error) {
	for _, slot := range s.recent {
		if slot.ty.Equals(ty) {
			return slot.idx, nil
		}
	}
	raw, err := ctyjson.MarshalType(ty)
	if err != nil {
		return 0, err
	}
	idx, ok := s.typeIdx[string(raw)]
	if !ok {
		idx = len(s.types)
		s.types = append(s.types, raw)
		s.typeIdx[string(raw)] = idx
	}
	if len(s.recent) == recentTypes {
		copy(s.recent, s.recent[1:])
		s.recent = s.recent[:recentTypes-1]
	}
	s.recent = append(s.recent, typeSlot{ty: ty, idx: idx})
	return idx, nil
}

// valueTable holds decoded records.
type valueTable struct {
	values []cty.Value
	raws   [][]byte
	isRaw  []bool
}

func decodeValueTable(typesJSON []json.RawMessage, data []byte) (*valueTable, error) {
	types := make([]cty.Type, len(typesJSON))
	for i, raw := range typesJSON {
		ty, err := unmarshalType(raw)
		if err != nil {
			return nil, fmt.Errorf("type %d: %w", i, err)
		}
		types[i] = ty
	}
	t := &valueTable{}
	for len(data) > 0 {
		kind, n := binary.Uvarint(data)
		if n <= 0 {
			return nil, fmt.Errorf("record %d: damaged header", len(t.isRaw))
		}
		data = data[n:]
		size, n := binary.Uvarint(data)
		if n <= 0 || size > uint64(len(data)-n) {
			return nil, fmt.Errorf("record %d: truncated", len(t.isRaw))
		}
		body := data[n : n+int(size)]
		data = data[n+int(size):]
		if kind == 0 {
			t.values = append(t.values, cty.NilVal)
			t.raws = append(t.raws, body)
			t.isRaw = append(t.isRaw, true)
			continue
		}
		if kind-1 >= uint64(len(types)) {
			return nil, fmt.Errorf("record %d: no type %d", len(t.isRaw), kind-1)
		}
		v, err := unmarshalValue(body, types[kind-1])
		if err != nil {
			return nil, fmt.Errorf("record %d: %w", len(t.isRaw), err)
		}
		t.values = append(t.values, v)
		t.raws = append(t.raws, nil)
		t.isRaw = append(t.isRaw, false)
	}
	return t, nil
}

func (t *valueTable) value(ref int) (cty.Value, error) {
	if ref == noRecord {
		return cty.NilVal, nil
	}
	if ref < 0 || ref >= len(t.isRaw) || t.isRaw[ref] {
		return cty.NilVal, fmt.Errorf("reference to missing value %d", ref)
	}
	return t.values[ref], nil
}

func (t *valueTable) bytes(ref int) ([]byte, error) {
	if ref == noRecord {
		return nil, nil
	}
	if ref < 0 || ref >= len(t.isRaw) || !t.isRaw[ref] {
		return nil, fmt.Errorf("reference to missing data %d", ref)
	}
	// Copy so callers may keep or modify it without pinning the archive.
	return append([]byte{}, t.raws[ref]...), nil
}

// unmarshalType and unmarshalValue turn panics of the cty decoders on
// hostile input into errors.
func unmarshalType(raw []byte) (ty cty.Type, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("invalid type: %v", r)
		}
	}()
	return ctyjson.UnmarshalType(raw)
}

func unmarshalValue(raw []byte, ty cty.Type) (v cty.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("invalid value: %v", r)
		}
	}()
	return ctymsgpack.Unmarshal(raw, ty)
}
