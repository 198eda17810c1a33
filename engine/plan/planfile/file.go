package planfile

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/tenetplan/tenet/engine/plan"
	"github.com/tenetplan/tenet/internal/atomicfile"
)

// A saved plan file (`plan -out=FILE`) is a zip archive holding:
//
//	tenet-plan.json  metadata: every field of Plan except the values, which
//	                 it refers to by record number; also the table of value types
//	values.bin       the records: cty values as msgpack of their type (which
//	                 keeps unknowns), and opaque byte strings (stored
//	                 attribute JSON, configuration JSON, …)
//
// The archive's CRCs catch corruption; the format name and version in the
// metadata tell a tenet plan from any other zip (such as OpenTofu's).

// PlanFileVersion is the version of the saved plan format this code writes
// and the only one it reads.
const PlanFileVersion = 1

const (
	planFileFormat = "tenet-plan"
	metaEntryName  = "tenet-plan.json"
	valuesEntry    = "values.bin"

	// maxEntrySize bounds what a plan file may inflate to, so a hostile
	// file cannot exhaust memory.
	maxEntrySize = 4 << 30
)

// ErrInvalidPlanFile is wrapped by every error reading a file that is not
// a readable tenet plan.
var ErrInvalidPlanFile = errors.New("not a valid plan file")

// WriteFile saves p at path, replacing any file there only once the new
// one is completely written.
func WriteFile(path string, p *plan.Plan) error {
	data, err := Encode(p)
	if err != nil {
		return err
	}
	// Plans carry secrets, like state files.
	if err := atomicfile.Write(path, 0o600, data); err != nil {
		return fmt.Errorf("writing plan file %s: %w", path, err)
	}
	return nil
}

// ReadFile loads the plan saved at path. A file that is not a tenet plan,
// is damaged, or has an unsupported version gives an error saying
// "PATH is not a valid plan file: …" (it wraps ErrInvalidPlanFile).
func ReadFile(path string) (*plan.Plan, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading plan file: %w", err)
	}
	p, err := Decode(data)
	if err != nil {
		return nil, fmt.Errorf("%s is %w", path, err)
	}
	return p, nil
}

// Encode gives the saved plan file form of p.
func Encode(p *plan.Plan) ([]byte, error) {
	enc := newFileEncoder()
	meta, err := enc.plan(p)
	if err != nil {
		return nil, fmt.Errorf("encoding plan: %w", err)
	}
	metaJSON, err := json.Marshal(meta)
	if err != nil {
		return nil, fmt.Errorf("encoding plan: %w", err)
	}

	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	zw.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) {
		return flate.NewWriter(w, flate.BestSpeed)
	})
	modified := p.Timestamp
	if modified.IsZero() {
		modified = time.Now()
	}
	for _, e := range []struct {
		name string
		data []byte
	}{{metaEntryName, metaJSON}, {valuesEntry, enc.values.buf}} {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: e.name, Method: zip.Deflate, Modified: modified})
		if err != nil {
			return nil, fmt.Errorf("encoding plan: %w", err)
		}
		if _, err := w.Write(e.data); err != nil {
			return nil, fmt.Errorf("encoding plan: %w", err)
		}
	}
	if err := zw.Close(); err != nil {
		return nil, fmt.Errorf("encoding plan: %w", err)
	}
	return buf.Bytes(), nil
}

// Decode reads a saved plan file's content. Errors wrap ErrInvalidPlanFile.
func Decode(data []byte) (*plan.Plan, error) {
	p, err := decode(data)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidPlanFile, err)
	}
	return p, nil
}

func decode(data []byte) (*plan.Plan, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, errors.New("not a tenet plan file (it is not a zip archive, or it is truncated)")
	}
	entries := map[string]*zip.File{}
	for _, f := range zr.File {
		if _, dup := entries[f.Name]; dup {
			return nil, fmt.Errorf("archive holds %s twice", f.Name)
		}
		entries[f.Name] = f
	}
	metaFile, ok := entries[metaEntryName]
	if !ok {
		return nil, fmt.Errorf("not a tenet plan file (no %s in the archive)", metaEntryName)
	}
	metaJSON, err := readEntry(metaFile)
	if err != nil {
		return nil, err
	}
	var head struct {
		Format  string `json:"format"`
		Version int    `json:"version"`
	}
	if err := json.Unmarshal(metaJSON, &head); err != nil {
		return nil, fmt.Errorf("damaged metadata: %w", err)
	}
	if head.Format != planFileFormat {
		return nil, fmt.Errorf("not a tenet plan file (format %q)", head.Format)
	}
	if head.Version != PlanFileVersion {
		return nil, fmt.Errorf("plan file version %d is not supported (this tenet reads version %d); create the plan again with this tenet", head.Version, PlanFileVersion)
	}
	var meta fileMeta
	if err := json.Unmarshal(metaJSON, &meta); err != nil {
		return nil, fmt.Errorf("damaged metadata: %w", err)
	}
	valuesFile, ok := entries[valuesEntry]
	if !ok {
		return nil, fmt.Errorf("no %s in the archive", valuesEntry)
	}
	valuesData, err := readEntry(valuesFile)
	if err != nil {
		return nil, err
	}
	dec, err := newFileDecoder(meta.Types, valuesData)
	if err != nil {
		return nil, err
	}
	return dec.plan(&meta)
}

func readEntry(f *zip.File) ([]byte, error) {
	if f.UncompressedSize64 > maxEntrySize {
		return nil, fmt.Errorf("%s is too large", f.Name)
	}
	rc, err := f.Open()
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", f.Name, err)
	}
	defer rc.Close()
	data, err := io.ReadAll(io.LimitReader(rc, maxEntrySize+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", f.Name, err)
	}
	if len(data) > maxEntrySize {
		return nil, fmt.Errorf("%s is too large", f.Name)
	}
	return data, nil
}
