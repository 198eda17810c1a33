// Package time is the built-in provider registry.opentofu.org/hashicorp/time,
// standing for hashicorp/time v0.14.2: time_offset, time_rotating,
// time_sleep and time_static, with the same attributes, import ID formats
// and arithmetic (moments keep their own zone; offsets are applied days,
// hours, minutes, months, seconds, years in that order; of several
// rotation periods the last of days, hours, minutes, months, rfc3339,
// years wins). time_rotating is removed on refresh once its rotation
// moment has passed, so the next plan creates it anew.
//
// Its functions, provider::time::duration_parse, rfc3339_parse and
// unix_timestamp_parse, return the same objects and error texts as the
// plugin's (for a Unix time that is not a 64-bit integer, the plugin
// framework's conversion error, odd as it reads).
package time
