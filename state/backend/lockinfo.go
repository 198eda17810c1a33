package backend

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/tenetplan/tenet/state/local"
)

// LockInfo describes a lock holder with OpenTofu's JSON field names (ID,
// Operation, Info, Who, Version, Created, Path). It is the local
// backend's type so the CLI prints one kind of lock info everywhere.
type LockInfo = local.LockInfo

// NewLockInfo fills in ID, Who and Created for an operation.
func NewLockInfo(operation string) LockInfo { return local.NewLockInfo(operation) }

// maxLockInfo bounds what is read as lock info: real ones are a few
// hundred bytes, and the bytes come from a server.
const maxLockInfo = 64 << 10

// ParseLockInfo decodes lock info JSON found in storage or sent by a
// server. It accepts exactly one JSON object and requires an ID, since a
// lock without one cannot be released.
func ParseLockInfo(data []byte) (*LockInfo, error) {
	if len(data) > maxLockInfo {
		return nil, fmt.Errorf("lock info is %d bytes, more than the %d a lock info can be", len(data), maxLockInfo)
	}
	data = bytes.TrimSpace(data)
	if len(data) == 0 || data[0] != '{' {
		return nil, errors.New("lock info is not a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	var info LockInfo
	if err := dec.Decode(&info); err != nil {
		return nil, fmt.Errorf("lock info is not valid: %w", err)
	}
	if dec.More() {
		return nil, errors.New("lock info has data after the JSON object")
	}
	if info.ID == "" {
		return nil, errors.New("lock info has no ID")
	}
	return &info, nil
}

// MarshalLockInfo encodes info as stored and sent.
func MarshalLockInfo(info *LockInfo) []byte {
	b, err := json.Marshal(info)
	if err != nil {
		// Only Created can fail (a year outside 0..9999); NewLockInfo
		// never makes one.
		panic(fmt.Sprintf("encoding lock info: %s", err))
	}
	return b
}
