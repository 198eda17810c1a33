package kit

import (
	"math/big"

	"github.com/zclconf/go-cty/cty"
)

// Known returns config.name and whether it is known and not null, the
// condition for validating it now (unknowns are checked on a later call).
func Known(config cty.Value, name string) (cty.Value, bool) {
	v := config.GetAttr(name)
	return v, v.IsWhollyKnown() && !v.IsNull()
}

// Int returns config.name as an int64 when known, non-null and integral.
func Int(config cty.Value, name string) (int64, bool) {
	v, ok := Known(config, name)
	if !ok {
		return 0, false
	}
	bf := v.AsBigFloat()
	if !bf.IsInt() {
		return 0, false
	}
	i, acc := bf.Int64()
	return i, acc == big.Exact
}

// Bool returns config.name, or def when null.
func Bool(obj cty.Value, name string, def bool) bool {
	v := obj.GetAttr(name)
	if v.IsNull() || !v.IsKnown() {
		return def
	}
	return v.True()
}

// String returns config.name, or "" when null or unknown.
func String(obj cty.Value, name string) string {
	v := obj.GetAttr(name)
	if v.IsNull() || !v.IsKnown() {
		return ""
	}
	return v.AsString()
}
