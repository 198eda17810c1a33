package plantest

import (
	"fmt"
	"strconv"
	"strings"
)

// The view documents below are written as text rather than by
// planjson.MarshalView so that they can hold shapes the writer never
// produces (split markers inside values) and so that the readers' tests do
// not depend on the writer.

// FlatCreatePlan builds the view document of n terraform_data creates, the
// shape planjson.MarshalView writes for
// `resource "terraform_data" "r" { count = n  input = "x-${count.index}" }`.
func FlatCreatePlan(n int) []byte {
	b := make([]byte, 0, 64+300*n)
	b = append(b, `{"format_version":"1.2","resource_changes":[`...)
	for i := range n {
		if i > 0 {
			b = append(b, ',')
		}
		idx := strconv.Itoa(i)
		b = append(b, `{"address":"terraform_data.r[`+idx+`]","mode":"managed","type":"terraform_data","name":"r","index":`+idx+
			`,"provider_name":"terraform.io/builtin/terraform","change":{"actions":["create"],"before":null,"after":{"input":"x-`+idx+
			`","triggers_replace":null},"after_unknown":{"id":true,"output":true},"before_sensitive":false,"after_sensitive":{}}}`...)
	}
	b = append(b, `],"errored":false}`...)
	return b
}

// mixedChangeTemplates are resource changes of every kind the renderer
// draws; %[1]d is the instance number.
var mixedChangeTemplates = []string{
	// create with unknowns
	`{"address":"terraform_data.c[%[1]d]","mode":"managed","type":"terraform_data","name":"c","index":%[1]d,"provider_name":"terraform.io/builtin/terraform","change":{"actions":["create"],"before":null,"after":{"input":{"a":[1,2],"b":"x-%[1]d"},"triggers_replace":null},"after_unknown":{"id":true,"output":true},"before_sensitive":false,"after_sensitive":{"input":{}}}}`,
	// in-place update touching every attribute kind, with a sensitive one
	`{"address":"example_thing.u[\"k%[1]d\"]","mode":"managed","type":"example_thing","name":"u","index":"k%[1]d","provider_name":"registry.opentofu.org/hashicorp/example","change":{"actions":["update"],` +
		`"before":{"id":"i-%[1]d","name":"old","password":"p1","tags":{"a":"1","b":"2"},"ports":[80,443,8080],"zones":["a","b"],"script":"line1\nline2\n","settings":{"a":1,"b":"x"},"rule":[{"from":1,"to":2},{"from":3,"to":4}],"timeouts":{"create":"5m"}},` +
		`"after":{"id":"i-%[1]d","name":"new-%[1]d","password":"p2","tags":{"a":"1","c":"3"},"ports":[80,8443,8080],"zones":["b","c"],"script":"line1\nline2 changed\nline3\n","settings":{"a":2,"b":"x"},"rule":[{"from":1,"to":2},{"from":5,"to":6}],"timeouts":null},` +
		`"after_unknown":{"tags":{}},"before_sensitive":{"password":true},"after_sensitive":{"password":true,"tags":{"c":true}}}}`,
	// tainted replacement with replace paths
	`{"address":"terraform_data.t[%[1]d]","mode":"managed","type":"terraform_data","name":"t","index":%[1]d,"provider_name":"terraform.io/builtin/terraform","change":{"actions":["delete","create"],"before":{"id":"old-%[1]d","input":"a","output":"a","triggers_replace":["v1"]},"after":{"input":"b","triggers_replace":["v2"]},"after_unknown":{"id":true,"output":true},"before_sensitive":{},"after_sensitive":{},"replace_paths":[["triggers_replace"]]},"action_reason":"replace_because_tainted"}`,
	// delete because the configuration is gone, in a module
	`{"address":"module.m[%[1]d].terraform_data.gone","module_address":"module.m[%[1]d]","mode":"managed","type":"terraform_data","name":"gone","provider_name":"terraform.io/builtin/terraform","change":{"actions":["delete"],"before":{"id":"g-%[1]d","input":null,"output":null,"triggers_replace":null},"after":null,"after_unknown":{},"before_sensitive":{},"after_sensitive":false},"action_reason":"delete_because_no_resource_config"}`,
	// move only
	`{"address":"terraform_data.moved[%[1]d]","previous_address":"terraform_data.old[%[1]d]","mode":"managed","type":"terraform_data","name":"moved","index":%[1]d,"provider_name":"terraform.io/builtin/terraform","change":{"actions":["no-op"],"before":{"id":"m","input":"x","output":"x","triggers_replace":null},"after":{"id":"m","input":"x","output":"x","triggers_replace":null},"after_unknown":{},"before_sensitive":{},"after_sensitive":{}}}`,
	// import with an update
	`{"address":"terraform_data.imp[%[1]d]","mode":"managed","type":"terraform_data","name":"imp","index":%[1]d,"provider_name":"terraform.io/builtin/terraform","change":{"actions":["update"],"before":{"id":"imported-%[1]d","input":null,"output":null,"triggers_replace":null},"after":{"id":"imported-%[1]d","input":"x","triggers_replace":null},"after_unknown":{"output":true},"before_sensitive":{},"after_sensitive":{},"importing":{"id":"imported-%[1]d"}}}`,
	// create-before-destroy replacement that also moved
	`{"address":"terraform_data.cbd[%[1]d]","previous_address":"terraform_data.was[%[1]d]","mode":"managed","type":"terraform_data","name":"cbd","index":%[1]d,"provider_name":"terraform.io/builtin/terraform","change":{"actions":["create","delete"],"before":{"id":"c","input":1,"output":1,"triggers_replace":null},"after":{"input":2,"triggers_replace":null},"after_unknown":{"id":true,"output":true},"before_sensitive":{},"after_sensitive":{},"replace_paths":[["input"]]},"action_reason":"replace_by_request"}`,
	// forget
	`{"address":"terraform_data.f[%[1]d]","mode":"managed","type":"terraform_data","name":"f","index":%[1]d,"provider_name":"terraform.io/builtin/terraform","change":{"actions":["forget"],"before":{"id":"f","input":{"k":"v"},"output":null,"triggers_replace":null},"after":null,"after_unknown":{},"before_sensitive":{},"after_sensitive":false}}`,
	// data source read during apply
	`{"address":"data.terraform_remote_state.s[%[1]d]","mode":"data","type":"terraform_remote_state","name":"s","index":%[1]d,"provider_name":"terraform.io/builtin/terraform","change":{"actions":["read"],"before":null,"after":{"backend":"local","config":{"path":"x"},"defaults":null,"workspace":null},"after_unknown":{"config":{"path":true},"outputs":true},"before_sensitive":false,"after_sensitive":{"config":{}}},"action_reason":"read_because_config_unknown"}`,
	// resource without a schema whose value changes kind
	`{"address":"other_thing.o[%[1]d]","mode":"managed","type":"other_thing","name":"o","index":%[1]d,"provider_name":"example.com/x/other","change":{"actions":["update"],"before":{"id":"o","v":"str","w":[1,{"a":null}],"big":12345678901234567890},"after":{"id":"o","v":{"now":"object"},"w":[1,{"a":true},3],"big":12345678901234567890.0},"after_unknown":{"w":[false,{},true]},"before_sensitive":{},"after_sensitive":{"w":[false,{"a":true}]}}}`,
	// deposed object left from a failed replacement
	`{"address":"terraform_data.dep[%[1]d]","mode":"managed","type":"terraform_data","name":"dep","index":%[1]d,"deposed":"abcd%[1]d","provider_name":"terraform.io/builtin/terraform","change":{"actions":["delete"],"before":{"id":"d","input":null,"output":null,"triggers_replace":null},"after":null,"after_unknown":{},"before_sensitive":{},"after_sensitive":false}}`,
	// import only
	`{"address":"terraform_data.io[%[1]d]","mode":"managed","type":"terraform_data","name":"io","index":%[1]d,"provider_name":"terraform.io/builtin/terraform","change":{"actions":["no-op"],"before":{"id":"x","input":null,"output":null,"triggers_replace":null},"after":{"id":"x","input":null,"output":null,"triggers_replace":null},"after_unknown":{},"before_sensitive":{},"after_sensitive":{},"importing":{"id":"x"}}}`,
}

// MixedPlan builds a view document with n changes of every kind, drift
// (some of it relevant to the plan) and output changes.
func MixedPlan(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"format_version":"1.2","resource_drift":[`)
	writeEach(&b, n/4, func(i int) {
		fmt.Fprintf(&b, `{"address":"example_thing.u[\"k%[1]d\"]","mode":"managed","type":"example_thing","name":"u","index":"k%[1]d","provider_name":"registry.opentofu.org/hashicorp/example","change":{"actions":["update"],"before":{"id":"i-%[1]d","name":"old","tags":{"a":"0"},"ports":[80]},"after":{"id":"i-%[1]d","name":"old","tags":{"a":"1","b":"2"},"ports":[81]},"after_unknown":{},"before_sensitive":{},"after_sensitive":{}}}`, i)
	})
	b.WriteString(`],"resource_changes":[`)
	writeEach(&b, n, func(i int) {
		fmt.Fprintf(&b, mixedChangeTemplates[i%len(mixedChangeTemplates)], i)
	})
	b.WriteString(`],"output_changes":{"a":{"actions":["create"],"before":null,"after":"x","after_unknown":false,"before_sensitive":false,"after_sensitive":false},"s":{"actions":["update"],"before":"1","after":"2","after_unknown":false,"before_sensitive":true,"after_sensitive":true}},"relevant_attributes":[`)
	// Every other drifted instance's tags are relevant.
	writeEach(&b, (n/4+1)/2, func(j int) {
		fmt.Fprintf(&b, `{"resource":"example_thing.u[\"k%d\"]","attribute":["tags"]}`, 2*j)
	})
	b.WriteString(`],"errored":false}`)
	return []byte(b.String())
}

// NestedMarkerPlan has n changes whose values contain the text that
// separates two changes, so guessed split points are often wrong.
func NestedMarkerPlan(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"format_version":"1.2","resource_drift":[`)
	writeEach(&b, n/3, func(i int) {
		fmt.Fprintf(&b, `{"address":"x.d[%d]","mode":"managed","type":"x","name":"d","index":%d,"change":{"actions":["update"],"before":{"v":[{"a":1},{"address":"q"}]},"after":{"v":[{"a":2},{"address":"q"}]},"after_unknown":{},"before_sensitive":{},"after_sensitive":{}}}`, i, i)
	})
	b.WriteString(`],"resource_changes":[`)
	writeEach(&b, n, func(i int) {
		fmt.Fprintf(&b, `{"address":"x.r[\"k%d\"]","mode":"managed","type":"x","name":"r","index":"k%d","change":{"actions":["create"],"before":null,"after":{"list":[{"a":%d.5e1},{"address":"}]},{\"address\":\"\u00e9"}],"n":-0.25},"after_unknown":{"id":true},"before_sensitive":false,"after_sensitive":{"list":[{},{"address":true}]}}}`, i, i, i)
	})
	b.WriteString(`],"output_changes":{"o":{"actions":["update"],"before":1,"after":2,"after_unknown":false,"before_sensitive":false,"after_sensitive":false}},"relevant_attributes":[{"resource":"x.d[0]","attribute":["v",0]}],"errored":false}`)
	return []byte(b.String())
}

// writeEach writes element(i) for each i below n, with commas between.
func writeEach(b *strings.Builder, n int, element func(i int)) {
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		element(i)
	}
}
