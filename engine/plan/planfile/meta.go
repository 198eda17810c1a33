package planfile

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/internal/provenance"
	"github.com/tenetplan/tenet/state"

	"github.com/tenetplan/tenet/engine/plan"
	"github.com/tenetplan/tenet/engine/plan/action"
)

// fileMeta is tenet-plan.json. Values are record numbers in values.bin.
type fileMeta struct {
	Format           string                         `json:"format"`
	Version          int                            `json:"version"`
	TerraformVersion string                         `json:"terraform_version"`
	Mode             string                         `json:"mode"`
	Timestamp        time.Time                      `json:"timestamp"`
	Changes          []fileChange                   `json:"changes"`
	Drift            []fileChange                   `json:"drift"`
	OutputChanges    []fileOutput                   `json:"output_changes"`
	Variables        map[string]int                 `json:"variables"`
	PrevRunState     *fileState                     `json:"prev_run_state"`
	PriorState       *fileState                     `json:"prior_state"`
	PriorLineage     string                         `json:"prior_lineage"`
	PriorSerial      uint64                         `json:"prior_serial"`
	ConfigDigest     string                         `json:"config_digest"`
	TargetAddrs      []string                       `json:"target_addrs"`
	ExcludeAddrs     []string                       `json:"exclude_addrs"`
	ForceReplace     []string                       `json:"force_replace_addrs"`
	SkipRefresh      bool                           `json:"skip_refresh"`
	Errored          bool                           `json:"errored"`
	Configuration    int                            `json:"configuration"`
	Relevant         []fileAttr                     `json:"relevant_attributes"`
	Provenance       map[string][]provenance.Rule   `json:"provenance"`
	Facts            map[string]*plan.DecisionFacts `json:"facts,omitempty"`
	PolicyResults    int                            `json:"policy_results"`
	Checks           *int                           `json:"checks,omitempty"`
	Types            []json.RawMessage              `json:"types"`
}

type fileChange struct {
	Addr            fileInstance    `json:"addr"`
	PrevRunAddr     *fileInstance   `json:"prev_run_addr,omitempty"`
	PrevRunSame     bool            `json:"prev_run_same,omitempty"`
	Deposed         string          `json:"deposed,omitempty"`
	Provider        string          `json:"provider,omitempty"`
	Action          string          `json:"action"`
	Reason          string          `json:"reason,omitempty"`
	Before          int             `json:"before"`
	After           int             `json:"after"`
	BeforeSensitive []filePath      `json:"before_sensitive,omitempty"`
	AfterSensitive  []filePath      `json:"after_sensitive,omitempty"`
	RequiredReplace []filePath      `json:"required_replace,omitempty"`
	Private         []byte          `json:"private"`
	Importing       *plan.Importing `json:"importing,omitempty"`
	SchemaVersion   uint64          `json:"schema_version,omitempty"`
	CBD             bool            `json:"create_before_destroy,omitempty"`
}

type fileOutput struct {
	Name      string `json:"name"`
	Action    string `json:"action"`
	Before    int    `json:"before"`
	After     int    `json:"after"`
	Sensitive bool   `json:"sensitive,omitempty"`
}

type fileAttr struct {
	Resource string   `json:"resource"`
	Attr     filePath `json:"attr"`
}

// fileInstance is a resource instance address in parts, so reading a plan
// with many changes does not parse address syntax.
type fileInstance struct {
	Module []fileModuleStep `json:"module,omitempty"`
	Mode   string           `json:"mode"`
	Type   string           `json:"type"`
	Name   string           `json:"name"`
	Key    *fileKey         `json:"key,omitempty"`
}

type fileModuleStep struct {
	Name string   `json:"name"`
	Key  *fileKey `json:"key,omitempty"`
}

// fileKey is an instance key: a JSON number for count, a string for for_each.
type fileKey struct{ key addrs.InstanceKey }

func (k fileKey) MarshalJSON() ([]byte, error) {
	switch key := k.key.(type) {
	case addrs.IntKey:
		return strconv.AppendInt(nil, int64(key), 10), nil
	case addrs.StringKey:
		return json.Marshal(string(key))
	}
	return nil, errors.New("invalid instance key")
}

func (k *fileKey) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		k.key = addrs.StringKey(s)
		return nil
	}
	i, err := strconv.Atoi(string(b))
	if err != nil {
		return fmt.Errorf("invalid instance key %s", b)
	}
	k.key = addrs.IntKey(i)
	return nil
}

func toFileKey(k addrs.InstanceKey) *fileKey {
	if k == nil {
		return nil
	}
	return &fileKey{k}
}

func (k *fileKey) instanceKey() addrs.InstanceKey {
	if k == nil {
		return nil
	}
	return k.key
}

// filePath is a cty.Path; index keys are value records.
type filePath []filePathStep

type filePathStep struct {
	Attr  *string `json:"attr,omitempty"`
	Index *int    `json:"index,omitempty"`
}

// fileState is a state.State; stored attribute JSON and other opaque
// bytes are records, kept byte for byte.
type fileState struct {
	Modules      []fileModule      `json:"modules"`
	NilModules   bool              `json:"nil_modules,omitempty"`
	Outputs      []fileStateOutput `json:"outputs,omitempty"`
	NilOutputs   bool              `json:"nil_outputs,omitempty"`
	CheckResults int               `json:"check_results"`
}

type fileStateOutput struct {
	Name      string `json:"name"`
	Value     int    `json:"value"`
	Sensitive bool   `json:"sensitive,omitempty"`
}

type fileModule struct {
	Key       string           `json:"key"`
	Addr      []fileModuleStep `json:"addr,omitempty"`
	Resources []fileResource   `json:"resources"`
}

type fileResource struct {
	Key       string             `json:"key"`
	Module    []fileModuleStep   `json:"module,omitempty"`
	Mode      string             `json:"mode"`
	Type      string             `json:"type"`
	Name      string             `json:"name"`
	Provider  string             `json:"provider"`
	Instances []fileInstanceObjs `json:"instances"`
}

type fileInstanceObjs struct {
	Key     *fileKey      `json:"key,omitempty"`
	Current *fileObject   `json:"current,omitempty"`
	Deposed []fileDeposed `json:"deposed,omitempty"`
	// NilDeposed keeps a nil Deposed map apart from an empty one.
	EmptyDeposed bool `json:"empty_deposed,omitempty"`
}

type fileDeposed struct {
	Key    string     `json:"key"`
	Object fileObject `json:"object"`
}

type fileObject struct {
	SchemaVersion  uint64          `json:"schema_version,omitempty"`
	Attrs          int             `json:"attrs"`
	Private        []byte          `json:"private"`
	Status         string          `json:"status"`
	Dependencies   []fileConfigRes `json:"dependencies,omitempty"`
	CBD            bool            `json:"create_before_destroy,omitempty"`
	SensitivePaths []filePath      `json:"sensitive_paths,omitempty"`
}

type fileConfigRes struct {
	Module []string `json:"module,omitempty"`
	Mode   string   `json:"mode"`
	Type   string   `json:"type"`
	Name   string   `json:"name"`
}

// fileEncoder turns a Plan into fileMeta plus value records.
type fileEncoder struct {
	values *valueStore
}

func newFileEncoder() *fileEncoder { return &fileEncoder{values: newValueStore()} }

func (e *fileEncoder) plan(p *plan.Plan) (*fileMeta, error) {
	if !p.Mode.Valid() {
		return nil, fmt.Errorf("invalid plan mode %q", byte(p.Mode))
	}
	m := &fileMeta{
		Format:           planFileFormat,
		Version:          PlanFileVersion,
		TerraformVersion: p.TerraformVersion,
		Mode:             p.Mode.String(),
		Timestamp:        p.Timestamp,
		PriorLineage:     p.PriorLineage,
		PriorSerial:      p.PriorSerial,
		ConfigDigest:     p.ConfigDigest,
		TargetAddrs:      p.TargetAddrs,
		ExcludeAddrs:     p.ExcludeAddrs,
		ForceReplace:     p.ForceReplaceAddrs,
		SkipRefresh:      p.SkipRefresh,
		Errored:          p.Errored,
		Configuration:    e.values.bytes(p.ConfigurationJSON()),
		Provenance:       p.Provenance,
		Facts:            p.Facts,
		PolicyResults:    e.values.bytes(p.PolicyResults),
	}
	if p.Checks != nil {
		ref := e.values.bytes(p.Checks)
		m.Checks = &ref
	}
	var err error
	if m.Changes, err = e.changes(p.Changes); err != nil {
		return nil, err
	}
	if m.Drift, err = e.changes(p.Drift); err != nil {
		return nil, fmt.Errorf("drift: %w", err)
	}
	for _, oc := range p.OutputChanges {
		if !oc.Action.Valid() {
			return nil, fmt.Errorf("output %q: invalid action %v", oc.Name, oc.Action)
		}
		fo := fileOutput{Name: oc.Name, Action: oc.Action.String(), Sensitive: oc.Sensitive}
		if fo.Before, err = e.values.value(oc.Before); err != nil {
			return nil, fmt.Errorf("output %q: %w", oc.Name, err)
		}
		if fo.After, err = e.values.value(oc.After); err != nil {
			return nil, fmt.Errorf("output %q: %w", oc.Name, err)
		}
		m.OutputChanges = append(m.OutputChanges, fo)
	}
	if p.Variables != nil {
		m.Variables = make(map[string]int, len(p.Variables))
		for _, name := range slices.Sorted(maps.Keys(p.Variables)) {
			if m.Variables[name], err = e.values.value(p.Variables[name]); err != nil {
				return nil, fmt.Errorf("variable %q: %w", name, err)
			}
		}
	}
	for _, ra := range p.RelevantAttributes {
		fp, err := e.path(ra.Attr)
		if err != nil {
			return nil, err
		}
		m.Relevant = append(m.Relevant, fileAttr{Resource: ra.Resource, Attr: fp})
	}
	if m.PrevRunState, err = e.state(p.PrevRunState); err != nil {
		return nil, fmt.Errorf("previous run state: %w", err)
	}
	if m.PriorState, err = e.state(p.PriorState); err != nil {
		return nil, fmt.Errorf("prior state: %w", err)
	}
	m.Types = e.values.types
	return m, nil
}

func (e *fileEncoder) changes(cs []*plan.ResourceInstanceChange) ([]fileChange, error) {
	if len(cs) == 0 {
		return nil, nil
	}
	out := make([]fileChange, len(cs))
	for i, c := range cs {
		if err := e.change(&out[i], c); err != nil {
			return nil, fmt.Errorf("%s: %w", c.ChangeKey(), err)
		}
	}
	return out, nil
}

func (e *fileEncoder) change(fc *fileChange, c *plan.ResourceInstanceChange) error {
	if !c.Action.Valid() {
		return fmt.Errorf("invalid action %v", c.Action)
	}
	if !c.Reason.Valid() {
		return fmt.Errorf("invalid reason %q", c.Reason)
	}
	*fc = fileChange{
		Addr:          toFileInstance(c.Addr),
		Deposed:       string(c.DeposedKey),
		Action:        c.Action.String(),
		Reason:        string(c.Reason),
		Private:       c.Private,
		Importing:     c.Importing,
		SchemaVersion: c.SchemaVersion,
		CBD:           c.CreateBeforeDestroy,
	}
	switch {
	case c.PrevRunAddr.Resource.Resource.Mode == 0 && c.PrevRunAddr.Module == nil:
		// no previous address recorded
	case c.PrevRunAddr.Equal(c.Addr):
		fc.PrevRunSame = true
	default:
		pa := toFileInstance(c.PrevRunAddr)
		fc.PrevRunAddr = &pa
	}
	fc.Provider = providerString(c.Provider)
	var err error
	if fc.Before, err = e.values.value(c.Before); err != nil {
		return fmt.Errorf("before: %w", err)
	}
	if fc.After, err = e.values.value(c.After); err != nil {
		return fmt.Errorf("after: %w", err)
	}
	if fc.BeforeSensitive, err = e.paths(c.BeforeSensitivePaths); err != nil {
		return err
	}
	if fc.AfterSensitive, err = e.paths(c.AfterSensitivePaths); err != nil {
		return err
	}
	if fc.RequiredReplace, err = e.paths(c.RequiredReplace); err != nil {
		return err
	}
	return nil
}

func (e *fileEncoder) paths(ps []cty.Path) ([]filePath, error) {
	if ps == nil {
		return nil, nil
	}
	out := make([]filePath, len(ps))
	for i, p := range ps {
		fp, err := e.path(p)
		if err != nil {
			return nil, err
		}
		out[i] = fp
	}
	return out, nil
}

func (e *fileEncoder) path(p cty.Path) (filePath, error) {
	if p == nil {
		return nil, nil
	}
	out := make(filePath, len(p))
	for i, step := range p {
		switch s := step.(type) {
		case cty.GetAttrStep:
			name := s.Name
			out[i].Attr = &name
		case cty.IndexStep:
			ref, err := e.values.value(s.Key)
			if err != nil {
				return nil, fmt.Errorf("path index key: %w", err)
			}
			out[i].Index = &ref
		default:
			return nil, fmt.Errorf("unsupported path step %T", step)
		}
	}
	return out, nil
}

func toFileInstance(a addrs.AbsResourceInstance) fileInstance {
	r := a.Resource.Resource
	return fileInstance{
		Module: toFileModule(a.Module),
		Mode:   r.Mode.String(),
		Type:   r.Type,
		Name:   r.Name,
		Key:    toFileKey(a.Resource.Key),
	}
}

func toFileModule(m addrs.ModuleInstance) []fileModuleStep {
	if m == nil {
		return nil
	}
	out := make([]fileModuleStep, len(m))
	for i, s := range m {
		out[i] = fileModuleStep{Name: s.Name, Key: toFileKey(s.Key)}
	}
	return out
}

// fileDecoder turns fileMeta and the value records back into a Plan.
type fileDecoder struct {
	values    *valueTable
	providers map[string]addrs.AbsProviderConfig
}

func newFileDecoder(types []json.RawMessage, valuesData []byte) (*fileDecoder, error) {
	t, err := decodeValueTable(types, valuesData)
	if err != nil {
		return nil, fmt.Errorf("damaged values: %w", err)
	}
	return &fileDecoder{values: t, providers: map[string]addrs.AbsProviderConfig{}}, nil
}

func (d *fileDecoder) plan(m *fileMeta) (*plan.Plan, error) {
	p := &plan.Plan{
		TerraformVersion:  m.TerraformVersion,
		Timestamp:         m.Timestamp,
		PriorLineage:      m.PriorLineage,
		PriorSerial:       m.PriorSerial,
		ConfigDigest:      m.ConfigDigest,
		TargetAddrs:       m.TargetAddrs,
		ExcludeAddrs:      m.ExcludeAddrs,
		ForceReplaceAddrs: m.ForceReplace,
		SkipRefresh:       m.SkipRefresh,
		Errored:           m.Errored,
		Provenance:        m.Provenance,
		Facts:             m.Facts,
	}
	switch m.Mode {
	case plan.NormalMode.String():
		p.Mode = plan.NormalMode
	case plan.DestroyMode.String():
		p.Mode = plan.DestroyMode
	case plan.RefreshOnlyMode.String():
		p.Mode = plan.RefreshOnlyMode
	default:
		return nil, fmt.Errorf("unknown plan mode %q", m.Mode)
	}
	var err error
	if p.Configuration, err = d.values.bytes(m.Configuration); err != nil {
		return nil, fmt.Errorf("configuration: %w", err)
	}
	if p.PolicyResults, err = d.values.bytes(m.PolicyResults); err != nil {
		return nil, fmt.Errorf("policy results: %w", err)
	}
	if m.Checks != nil {
		if p.Checks, err = d.values.bytes(*m.Checks); err != nil {
			return nil, fmt.Errorf("checks: %w", err)
		}
	}
	if p.Changes, err = d.changes(m.Changes); err != nil {
		return nil, err
	}
	if p.Drift, err = d.changes(m.Drift); err != nil {
		return nil, fmt.Errorf("drift: %w", err)
	}
	for _, fo := range m.OutputChanges {
		oc := &plan.OutputChange{Name: fo.Name, Sensitive: fo.Sensitive}
		if oc.Action, err = parseAction(fo.Action); err != nil {
			return nil, fmt.Errorf("output %q: %w", fo.Name, err)
		}
		if oc.Before, err = d.values.value(fo.Before); err != nil {
			return nil, fmt.Errorf("output %q: %w", fo.Name, err)
		}
		if oc.After, err = d.values.value(fo.After); err != nil {
			return nil, fmt.Errorf("output %q: %w", fo.Name, err)
		}
		p.OutputChanges = append(p.OutputChanges, oc)
	}
	if m.Variables != nil {
		p.Variables = make(map[string]cty.Value, len(m.Variables))
		for name, ref := range m.Variables {
			if p.Variables[name], err = d.values.value(ref); err != nil {
				return nil, fmt.Errorf("variable %q: %w", name, err)
			}
		}
	}
	for _, fa := range m.Relevant {
		path, err := d.path(fa.Attr)
		if err != nil {
			return nil, fmt.Errorf("relevant attribute of %s: %w", fa.Resource, err)
		}
		p.RelevantAttributes = append(p.RelevantAttributes, plan.ResourceAttr{Resource: fa.Resource, Attr: path})
	}
	if p.PrevRunState, err = d.state(m.PrevRunState); err != nil {
		return nil, fmt.Errorf("previous run state: %w", err)
	}
	if p.PriorState, err = d.state(m.PriorState); err != nil {
		return nil, fmt.Errorf("prior state: %w", err)
	}
	return p, nil
}

func (d *fileDecoder) changes(fcs []fileChange) ([]*plan.ResourceInstanceChange, error) {
	if len(fcs) == 0 {
		return nil, nil
	}
	out := make([]*plan.ResourceInstanceChange, len(fcs))
	objs := make([]plan.ResourceInstanceChange, len(fcs)) // one allocation for all
	for i := range fcs {
		c := &objs[i]
		if err := d.change(c, &fcs[i]); err != nil {
			return nil, fmt.Errorf("change %d: %w", i, err)
		}
		out[i] = c
	}
	return out, nil
}

func (d *fileDecoder) change(c *plan.ResourceInstanceChange, fc *fileChange) error {
	var err error
	if c.Addr, err = fromFileInstance(&fc.Addr); err != nil {
		return err
	}
	switch {
	case fc.PrevRunAddr != nil:
		if c.PrevRunAddr, err = fromFileInstance(fc.PrevRunAddr); err != nil {
			return fmt.Errorf("previous address: %w", err)
		}
	case fc.PrevRunSame:
		c.PrevRunAddr = c.Addr
	}
	c.DeposedKey = state.DeposedKey(fc.Deposed)
	if c.Provider, err = d.provider(fc.Provider); err != nil {
		return err
	}
	if c.Action, err = parseAction(fc.Action); err != nil {
		return err
	}
	c.Reason = plan.Reason(fc.Reason)
	if !c.Reason.Valid() {
		return fmt.Errorf("unknown action reason %q", fc.Reason)
	}
	if c.Before, err = d.values.value(fc.Before); err != nil {
		return fmt.Errorf("before: %w", err)
	}
	if c.After, err = d.values.value(fc.After); err != nil {
		return fmt.Errorf("after: %w", err)
	}
	if c.BeforeSensitivePaths, err = d.paths(fc.BeforeSensitive); err != nil {
		return err
	}
	if c.AfterSensitivePaths, err = d.paths(fc.AfterSensitive); err != nil {
		return err
	}
	if c.RequiredReplace, err = d.paths(fc.RequiredReplace); err != nil {
		return err
	}
	c.Private = fc.Private
	c.Importing = fc.Importing
	c.SchemaVersion = fc.SchemaVersion
	c.CreateBeforeDestroy = fc.CBD
	return nil
}

// providerString is the provider configuration address, or "" when unset.
func providerString(pc addrs.AbsProviderConfig) string {
	if pc.Provider.IsZero() && len(pc.Module) == 0 && pc.Alias == "" {
		return ""
	}
	return pc.String()
}

func (d *fileDecoder) provider(s string) (addrs.AbsProviderConfig, error) {
	if s == "" {
		return addrs.AbsProviderConfig{}, nil
	}
	if pc, ok := d.providers[s]; ok {
		return pc, nil
	}
	pc, err := addrs.ParseAbsProviderConfigStr(s)
	if err != nil {
		return pc, err
	}
	d.providers[s] = pc
	return pc, nil
}

func (d *fileDecoder) paths(fps []filePath) ([]cty.Path, error) {
	if fps == nil {
		return nil, nil
	}
	out := make([]cty.Path, len(fps))
	for i, fp := range fps {
		p, err := d.path(fp)
		if err != nil {
			return nil, err
		}
		out[i] = p
	}
	return out, nil
}

func (d *fileDecoder) path(fp filePath) (cty.Path, error) {
	if fp == nil {
		return nil, nil
	}
	out := make(cty.Path, len(fp))
	for i, s := range fp {
		switch {
		case s.Attr != nil && s.Index == nil:
			out[i] = cty.GetAttrStep{Name: *s.Attr}
		case s.Index != nil && s.Attr == nil:
			k, err := d.values.value(*s.Index)
			if err != nil || k == cty.NilVal {
				return nil, fmt.Errorf("path index key: missing value")
			}
			out[i] = cty.IndexStep{Key: k}
		default:
			return nil, errors.New("path step is neither an attribute nor an index")
		}
	}
	return out, nil
}

// parseAction reads an action as the file stores it: its Go name.
func parseAction(s string) (action.Action, error) {
	if a, ok := action.FromString(s); ok {
		return a, nil
	}
	return 0, fmt.Errorf("unknown action %q", s)
}

func parseMode(s string) (addrs.ResourceMode, error) {
	switch s {
	case "managed":
		return addrs.ManagedResourceMode, nil
	case "data":
		return addrs.DataResourceMode, nil
	}
	return 0, fmt.Errorf("unknown resource mode %q", s)
}

func fromFileInstance(fi *fileInstance) (addrs.AbsResourceInstance, error) {
	mode, err := parseMode(fi.Mode)
	if err != nil {
		return addrs.AbsResourceInstance{}, err
	}
	if fi.Type == "" || fi.Name == "" {
		return addrs.AbsResourceInstance{}, errors.New("resource address without type or name")
	}
	mod, err := fromFileModule(fi.Module)
	if err != nil {
		return addrs.AbsResourceInstance{}, err
	}
	return addrs.AbsResourceInstance{
		Module:   mod,
		Resource: addrs.ResourceInstance{Resource: addrs.Resource{Mode: mode, Type: fi.Type, Name: fi.Name}, Key: fi.Key.instanceKey()},
	}, nil
}

func fromFileModule(steps []fileModuleStep) (addrs.ModuleInstance, error) {
	if steps == nil {
		return nil, nil
	}
	out := make(addrs.ModuleInstance, len(steps))
	for i, s := range steps {
		if s.Name == "" {
			return nil, errors.New("module address step without a name")
		}
		out[i] = addrs.ModuleInstanceStep{Name: s.Name, Key: s.Key.instanceKey()}
	}
	return out, nil
}
