package planfile

import (
	"fmt"
	"maps"
	"slices"
	"sort"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/state"
)

// States inside a saved plan are kept in tenet's own layout rather than the
// version-4 state file format: they must survive exactly (attribute JSON
// byte for byte, sensitive paths as paths, nil versus empty) and need no
// lineage or serial of their own.

func (e *fileEncoder) state(s *state.State) (*fileState, error) {
	if s == nil {
		return nil, nil
	}
	fs := &fileState{
		NilModules:   s.Modules == nil,
		NilOutputs:   s.Outputs == nil,
		CheckResults: e.values.bytes(s.CheckResults),
	}
	for _, name := range slices.Sorted(maps.Keys(s.Outputs)) {
		ov := s.Outputs[name]
		if ov == nil {
			return nil, fmt.Errorf("output %q has no value", name)
		}
		ref, err := e.values.value(ov.Value)
		if err != nil {
			return nil, fmt.Errorf("output %q: %w", name, err)
		}
		fs.Outputs = append(fs.Outputs, fileStateOutput{Name: name, Value: ref, Sensitive: ov.Sensitive})
	}
	for _, mk := range slices.Sorted(maps.Keys(s.Modules)) {
		m := s.Modules[mk]
		if m == nil {
			continue
		}
		fm := fileModule{Key: mk, Addr: toFileModule(m.Addr)}
		for _, rk := range slices.Sorted(maps.Keys(m.Resources)) {
			r := m.Resources[rk]
			if r == nil {
				continue
			}
			fr, err := e.resource(rk, r)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", r.Addr, err)
			}
			fm.Resources = append(fm.Resources, fr)
		}
		fs.Modules = append(fs.Modules, fm)
	}
	return fs, nil
}

func (e *fileEncoder) resource(key string, r *state.Resource) (fileResource, error) {
	fr := fileResource{
		Key:      key,
		Module:   toFileModule(r.Addr.Module),
		Mode:     r.Addr.Resource.Mode.String(),
		Type:     r.Addr.Resource.Type,
		Name:     r.Addr.Resource.Name,
		Provider: providerString(r.ProviderConfig),
	}
	keys := make([]addrs.InstanceKey, 0, len(r.Instances))
	for k := range r.Instances {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return addrs.KeyLess(keys[i], keys[j]) })
	for _, k := range keys {
		inst := r.Instances[k]
		if inst == nil {
			continue
		}
		fi := fileInstanceObjs{Key: toFileKey(k), EmptyDeposed: inst.Deposed != nil && len(inst.Deposed) == 0}
		if inst.Current != nil {
			obj, err := e.object(inst.Current)
			if err != nil {
				return fr, err
			}
			fi.Current = &obj
		}
		for _, dk := range slices.Sorted(maps.Keys(inst.Deposed)) {
			obj, err := e.object(inst.Deposed[dk])
			if err != nil {
				return fr, fmt.Errorf("deposed %s: %w", dk, err)
			}
			fi.Deposed = append(fi.Deposed, fileDeposed{Key: string(dk), Object: obj})
		}
		fr.Instances = append(fr.Instances, fi)
	}
	return fr, nil
}

func (e *fileEncoder) object(o *state.ObjectSrc) (fileObject, error) {
	if o == nil {
		return fileObject{}, fmt.Errorf("missing object")
	}
	fo := fileObject{
		SchemaVersion: o.SchemaVersion,
		Attrs:         e.values.bytes(o.AttrsJSON),
		Private:       o.Private,
		Status:        string(rune(o.Status)),
		CBD:           o.CreateBeforeDestroy,
	}
	if o.Status == 0 {
		fo.Status = ""
	}
	for _, dep := range o.Dependencies {
		fo.Dependencies = append(fo.Dependencies, fileConfigRes{
			Module: dep.Module, Mode: dep.Resource.Mode.String(), Type: dep.Resource.Type, Name: dep.Resource.Name,
		})
	}
	var err error
	if fo.SensitivePaths, err = e.paths(o.SensitivePaths); err != nil {
		return fo, err
	}
	return fo, nil
}

func (d *fileDecoder) state(fs *fileState) (*state.State, error) {
	if fs == nil {
		return nil, nil
	}
	s := &state.State{}
	var err error
	if s.CheckResults, err = d.values.bytes(fs.CheckResults); err != nil {
		return nil, fmt.Errorf("check results: %w", err)
	}
	if !fs.NilOutputs {
		s.Outputs = make(map[string]*state.OutputValue, len(fs.Outputs))
	}
	for _, fo := range fs.Outputs {
		if s.Outputs == nil {
			return nil, fmt.Errorf("outputs recorded as absent but listed")
		}
		v, err := d.values.value(fo.Value)
		if err != nil {
			return nil, fmt.Errorf("output %q: %w", fo.Name, err)
		}
		s.Outputs[fo.Name] = &state.OutputValue{Value: v, Sensitive: fo.Sensitive}
	}
	if !fs.NilModules {
		s.Modules = make(map[string]*state.Module, len(fs.Modules))
	}
	for _, fm := range fs.Modules {
		if s.Modules == nil {
			return nil, fmt.Errorf("modules recorded as absent but listed")
		}
		addr, err := fromFileModule(fm.Addr)
		if err != nil {
			return nil, err
		}
		m := &state.Module{Addr: addr, Resources: make(map[string]*state.Resource, len(fm.Resources))}
		for i := range fm.Resources {
			r, err := d.resource(&fm.Resources[i])
			if err != nil {
				return nil, err
			}
			m.Resources[fm.Resources[i].Key] = r
		}
		s.Modules[fm.Key] = m
	}
	return s, nil
}

func (d *fileDecoder) resource(fr *fileResource) (*state.Resource, error) {
	mode, err := parseMode(fr.Mode)
	if err != nil {
		return nil, err
	}
	mod, err := fromFileModule(fr.Module)
	if err != nil {
		return nil, err
	}
	r := &state.Resource{
		Addr:      addrs.AbsResource{Module: mod, Resource: addrs.Resource{Mode: mode, Type: fr.Type, Name: fr.Name}},
		Instances: make(map[addrs.InstanceKey]*state.ResourceInstance, len(fr.Instances)),
	}
	if r.ProviderConfig, err = d.provider(fr.Provider); err != nil {
		return nil, fmt.Errorf("%s: %w", r.Addr, err)
	}
	for _, fi := range fr.Instances {
		inst := &state.ResourceInstance{}
		if fi.Current != nil {
			if inst.Current, err = d.object(fi.Current); err != nil {
				return nil, fmt.Errorf("%s: %w", r.Addr, err)
			}
		}
		if len(fi.Deposed) > 0 || fi.EmptyDeposed {
			inst.Deposed = make(map[state.DeposedKey]*state.ObjectSrc, len(fi.Deposed))
		}
		for _, fd := range fi.Deposed {
			if fd.Key == "" {
				return nil, fmt.Errorf("%s: deposed object without a key", r.Addr)
			}
			obj, err := d.object(&fd.Object)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", r.Addr, err)
			}
			inst.Deposed[state.DeposedKey(fd.Key)] = obj
		}
		r.Instances[fi.Key.instanceKey()] = inst
	}
	return r, nil
}

func (d *fileDecoder) object(fo *fileObject) (*state.ObjectSrc, error) {
	o := &state.ObjectSrc{
		SchemaVersion:       fo.SchemaVersion,
		Private:             fo.Private,
		CreateBeforeDestroy: fo.CBD,
	}
	switch fo.Status {
	case "":
	case string(rune(state.ObjectReady)):
		o.Status = state.ObjectReady
	case string(rune(state.ObjectTainted)):
		o.Status = state.ObjectTainted
	default:
		return nil, fmt.Errorf("unknown object status %q", fo.Status)
	}
	var err error
	if o.AttrsJSON, err = d.values.bytes(fo.Attrs); err != nil {
		return nil, err
	}
	for _, dep := range fo.Dependencies {
		mode, err := parseMode(dep.Mode)
		if err != nil {
			return nil, err
		}
		o.Dependencies = append(o.Dependencies, addrs.ConfigResource{
			Module:   dep.Module,
			Resource: addrs.Resource{Mode: mode, Type: dep.Type, Name: dep.Name},
		})
	}
	if o.SensitivePaths, err = d.paths(fo.SensitivePaths); err != nil {
		return nil, err
	}
	return o, nil
}
